// The finding filter shared by every widget of one log (finding-filter.ts says where it lives).
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { emptySelection, searchWithSelection, selectionFromSearch, type FilterKey,
         type FilterSelection } from './finding-filter';

interface FilterContextValue {
  selection: FilterSelection;
  toggle(key: FilterKey, value: string): void;
  clear(): void;
}

const FilterContext = createContext<FilterContextValue>({
  selection: emptySelection(), toggle: () => undefined, clear: () => undefined });

export function useFindingFilter(): FilterContextValue { return useContext(FilterContext); }

// `fileId`: the log shown. Switching logs resets the selection (to the new address's, empty for a
// log just picked); the same log's documents coming again (a refresh) keep it.
export function FindingFilterProvider({ fileId, children }: { fileId: string | null; children: ComponentChildren }) {
  const [selection, setSelection] = useState<FilterSelection>(() => selectionFromSearch(location.search));
  const shownFile = useRef(fileId);

  useEffect(() => {
    const reseed = () => setSelection(selectionFromSearch(location.search));
    window.addEventListener('popstate', reseed);
    return () => window.removeEventListener('popstate', reseed);
  }, []);

  // Another log: its own filter, the one in its address (none when it was picked: navigate()
  // drops the query when the log changes; the one it had when Back returns to it).
  useEffect(() => {
    if (shownFile.current === fileId) return;
    shownFile.current = fileId;
    setSelection(selectionFromSearch(location.search));
  }, [fileId]);

  function apply(next: FilterSelection) {
    setSelection(next);
    const search = searchWithSelection(location.search, next);
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }

  function toggle(key: FilterKey, value: string) {
    const next: FilterSelection = { impact: new Set(selection.impact), type: new Set(selection.type),
                                    stage: new Set(selection.stage) };
    if (next[key].has(value)) next[key].delete(value); else next[key].add(value);
    apply(next);
  }

  return (
    <FilterContext.Provider value={{ selection, toggle, clear: () => apply(emptySelection()) }}>
      {children}
    </FilterContext.Provider>
  );
}
