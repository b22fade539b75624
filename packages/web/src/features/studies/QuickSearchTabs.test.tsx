// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { QuickSearch } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../test/appProviders';
import { setLanguage } from '../../i18n';
import { QuickSearchTabs } from './QuickSearchTabs';

const search = (id: string, title: string, titleKey: QuickSearch['titleKey']): QuickSearch => ({
  id,
  type: 'study',
  title,
  titleKey,
  criteria: { studyDate: { preset: 'today' }, filters: [], sorts: [] },
  sort: 0,
});

function renderTabs(searches: QuickSearch[], activeId: string | null = null, onSelect = (_: string | null) => {}) {
  const queryClient = new QueryClient();
  render(
    <AppProviders queryClient={queryClient}>
      <QuickSearchTabs
        searches={searches}
        activeId={activeId}
        onSelect={onSelect}
        onSave={() => undefined}
        onManage={() => undefined}
      />
    </AppProviders>,
  );
}

const tabs = () => [...document.querySelectorAll('.ant-tabs-tab')].map((e) => e.textContent);

describe('quick search tabs', () => {
  it('name the default searches in the interface language, whatever title they were stored with', async () => {
    renderTabs([
      search('q1', '今天', 'today'),
      search('q2', '昨天', 'yesterday'),
      search('q3', '近7天', 'last7Days'),
      search('q4', '胸部CT', null),
    ]);
    expect(tabs()).toEqual(['All exams', 'Today', 'Yesterday', '7 days', '胸部CT']);
    await act(() => setLanguage('tib'));
    expect(await screen.findByText('ཁ་སང་།')).toBeTruthy();
    expect(tabs().slice(1)).toEqual(['དེ་རིང་།', 'ཁ་སང་།', 'ཉིན་༧', '胸部CT']);
    await act(() => setLanguage('chs'));
    expect(tabs().slice(1)).toEqual(['今天', '昨天', '近7天', '胸部CT']);
  });

  it('select the tab clicked, the one already shown too (a choice made before the stored tab came back)', () => {
    const onSelect = vi.fn();
    renderTabs([search('q1', '今天', 'today'), search('q4', '胸部CT', null)], null, onSelect);
    fireEvent.click(screen.getByRole('tab', { name: 'All exams' }));
    expect(onSelect).toHaveBeenLastCalledWith(null);
    fireEvent.click(screen.getByRole('tab', { name: '胸部CT' }));
    expect(onSelect).toHaveBeenLastCalledWith('q4');
    expect(onSelect).toHaveBeenCalledTimes(2);
  });
});
