import { screen, within } from '@testing-library/react';

/**
 * Text-based lookups for the dense administration pages. Role queries with a `name` compute the
 * accessible name through getComputedStyle, which jsdom answers by cascading all of Ant Design's
 * injected CSS: on a page with tables and drawers one such query takes seconds.
 */

/** The button whose visible text is `text` (icons excluded), optionally inside `container`. */
export function buttonByText(text: string, container: HTMLElement = document.body): HTMLButtonElement {
  const label = within(container).getByText(text, { selector: 'button span, button' });
  return label.closest('button') as HTMLButtonElement;
}

export async function findButtonByText(text: string, container: HTMLElement = document.body) {
  await within(container).findByText(text, { selector: 'button span, button' });
  return buttonByText(text, container);
}

/** The table row holding a cell with exactly `text`. */
export async function findRow(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, { selector: 'td, td *' });
  return cell.closest('tr') as HTMLElement;
}

/** A drawer or modal by its title. */
export async function findOverlay(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, {
    selector: '.ant-drawer-title, .ant-modal-title, .ant-modal-title *',
  });
  return (heading.closest('.ant-drawer') ?? heading.closest('.ant-modal')) as HTMLElement;
}
