import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchAccountSuggestions } from '../../api/accounts';
import { useDebouncedValue } from '../../ui/useDebouncedValue';

/** Account search for pickers (GET accounts/suggestions), asked when the typing pauses. */
export function useAccountSuggestions() {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 250);
  const query = useQuery({
    queryKey: ['accounts', 'suggestions', q],
    queryFn: ({ signal }) => fetchAccountSuggestions(q, signal),
    enabled: q.length > 0,
    staleTime: 10_000,
  });
  return {
    search,
    setSearch,
    suggestions: q.length > 0 ? (query.data ?? []) : [],
    searching: search.trim() !== q || (q.length > 0 && query.isFetching),
  };
}
