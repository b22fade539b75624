export {
  startWxLoginSimulator,
  type WxLoginSimulator,
  type WxLoginSimulatorOptions,
  type WxSimUser,
} from './simulator.js';
