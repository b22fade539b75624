// The app's providers (query cache, Ant Design theme and locale, toasts) for a feature's test that
// renders one screen: a feature imports nothing of app/ (eslint-rules/boundaries.js), its tests
// take the providers from here.
export { AppProviders } from '../app/AppProviders';
