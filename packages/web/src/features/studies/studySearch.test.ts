import type { QuickSearch } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { titleProblem } from './QuickSearchDialogs';
import { advancedCount, criteriaFromSearch, EMPTY_SEARCH, ownFilters, searchFilters } from './studySearch';

const today = new Date(2026, 10, 24, 10, 0);
const yesterdayCt: QuickSearch = {
  id: 'q1',
  type: 'study',
  title: '昨天CT',
  titleKey: null,
  sort: 0,
  criteria: {
    studyDate: { preset: 'yesterday' },
    filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }],
    sorts: [],
  },
};

describe('study list filters', () => {
  it('has no filter for an empty search', () => {
    expect(ownFilters(EMPTY_SEARCH)).toEqual([]);
    expect(searchFilters(EMPTY_SEARCH, undefined, today)).toEqual([]);
  });
  it('turns the search bar into keyword, modality and study date filters', () => {
    expect(
      ownFilters({ ...EMPTY_SEARCH, keyword: ' wx ', modalities: ['CT', 'MR'], studyDate: ['20261101', ''] }),
    ).toEqual([
      { field: 'keyword', operator: 'contains', values: ['wx'] },
      { field: 'modality', operator: 'in', values: ['CT', 'MR'] },
      { field: 'studyDate', operator: 'range', values: ['20261101', ''] },
    ]);
  });
  it('turns the advanced fields into their filters, skipping empty ones', () => {
    const filters = ownFilters({
      ...EMPTY_SEARCH,
      advanced: {
        patientId: 'P1',
        applyDept: '  ',
        ageFrom: 18,
        ageTo: null,
        genders: ['F'],
        assignees: ['none'],
        urgentFlag: 'true',
        printed: undefined,
        createdFrom: '2026-11-01',
      },
    });
    expect(filters).toEqual([
      { field: 'patientId', operator: 'prefix', values: ['P1'] },
      { field: 'created', operator: 'range', values: ['2026-11-01', ''] },
      { field: 'age', operator: 'range', values: ['18', ''] },
      { field: 'patientGender', operator: 'eq', values: ['F'] },
      { field: 'assigneeId', operator: 'eq', values: ['none'] },
      { field: 'urgentFlag', operator: 'eq', values: ['true'] },
    ]);
    expect(advancedCount({ patientId: 'P1', genders: [], urgentFlag: 'false' })).toBe(2);
  });
  it('applies the quick search tab, its study date giving way to dates the user picked', () => {
    expect(searchFilters({ ...EMPTY_SEARCH, quickId: 'q1', keyword: 'zw' }, yesterdayCt, today)).toEqual([
      { field: 'studyDate', operator: 'range', values: ['20261123', '20261123'] },
      { field: 'modality', operator: 'eq', values: ['CT'] },
      { field: 'keyword', operator: 'contains', values: ['zw'] },
    ]);
    const own = searchFilters(
      { ...EMPTY_SEARCH, quickId: 'q1', studyDate: ['20260101', '20260131'] },
      yesterdayCt,
      today,
    );
    expect(own.filter((f) => f.field === 'studyDate')).toEqual([
      { field: 'studyDate', operator: 'range', values: ['20260101', '20260131'] },
    ]);
  });
  it('saves what is on screen as quick search criteria', () => {
    const search = { ...EMPTY_SEARCH, keyword: 'zw', modalities: ['CT'] };
    expect(criteriaFromSearch(search, undefined, 'yesterday', today)).toEqual({
      studyDate: { preset: 'yesterday' },
      filters: [
        { field: 'keyword', operator: 'contains', values: ['zw'] },
        { field: 'modality', operator: 'eq', values: ['CT'] },
      ],
      sorts: [],
    });
    expect(
      criteriaFromSearch({ ...search, studyDate: ['20261120', '20261122'] }, undefined, 'custom', today).studyDate,
    ).toEqual({
      preset: 'custom',
      from: '20261120',
      to: '20261122',
    });
    // From a tab: its filters come along, and its dates when custom is chosen.
    expect(criteriaFromSearch(EMPTY_SEARCH, yesterdayCt, 'custom', today)).toEqual({
      studyDate: { preset: 'custom', from: '20261123', to: '20261123' },
      filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }],
      sorts: [],
    });
  });
});

describe('quick search titles', () => {
  it('needs a title of at most 10 characters, unique regardless of case', () => {
    expect(titleProblem('', [])).toBe('required');
    expect(titleProblem('   ', [])).toBe('required');
    expect(titleProblem('十个汉字十个汉字十个', [])).toBeNull();
    expect(titleProblem('十一个汉字十一个汉字十', [])).toBe('tooLong');
    expect(titleProblem('昨天ct', [yesterdayCt])).toBe('duplicate');
    expect(titleProblem('昨天CT', [yesterdayCt], 'q1')).toBeNull();
  });
});
