// One API answer for a view: loaded again whenever its key changes, the answer of an older key
// dropped when it arrives late. `load` null: nothing is asked (yet).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';

export function useAnswer<T>(load: (() => Promise<T>) | null, key: string): { data: T | null; error: ApiError | null } {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null }>({ data: null, error: null });
  useEffect(() => {
    if (!load) return undefined;
    let live = true;
    setState({ data: null, error: null });
    load().then((data) => live && setState({ data, error: null }),
                (e) => live && setState({ data: null, error: e instanceof ApiError ? e : new ApiError(0, 'internal', String(e)) }));
    return () => { live = false; };
  }, [key]);
  return state;
}
