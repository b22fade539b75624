// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import type { QuickSearch } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
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

function renderTabs(searches: QuickSearch[]) {
  const queryClient = new QueryClient();
  render(
    <AppProviders queryClient={queryClient}>
      <QuickSearchTabs
        searches={searches}
        activeId={null}
        onSelect={() => undefined}
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
});
