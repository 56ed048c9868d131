import { useState, type CSSProperties, type ReactNode } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Button, TextField } from '../../components/ui';
import { LIVE_HIGHLIGHT_MS } from '../../config/constants';
import { Select } from './ui/Select';
import { adminGet, adminKeys, downloadCSV, errorText, query, type Page } from './api';
import { ENDPOINT_TABLES, useLiveHighlight } from './live';

export interface Filter {
  name: string;
  label: string;
  options: { value: string; label: string }[];
}

export interface Column<T> {
  label: string;
  render: (item: T) => ReactNode;
}

interface Props<T> {
  title: string;
  endpoint: string; // "waitlist", "messages", "people", "audit"
  filters?: Filter[];
  sorts?: { value: string; label: string }[];
  search?: string; // label of the search box; none when undefined
  /** One line under the search box: what a search matches. */
  searchHint?: string;
  columns: Column<T>[];
  rowKey: (item: T) => string;
  csv?: boolean;
  /** Shown under a row when given (the inbox's reply and note). */
  expand?: (item: T) => ReactNode;
}

/**
 * ListView is one of the console's tables: filters, a search, a sort, pages
 * of 50 through the API's keyset cursors, and "Download CSV" of what the
 * filters show. The pages are one infinite query per filter
 * (['admin', endpoint, filter]): going back shows a page already loaded, and
 * a change of the list's tables reloads the pages seen.
 */
export function ListView<T>({ title, endpoint, filters = [], sorts = [], search, searchHint, columns, rowKey, csv = true, expand }: Props<T>) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState(sorts[0]?.value ?? '');
  const [csvError, setCsvError] = useState('');
  const params = { ...values, q: q || undefined, sort: sort && sort !== sorts[0]?.value ? sort : undefined };
  const filterKey = JSON.stringify(params);
  // The page shown, counted from 0, for this filter (a new filter starts at its first page).
  const [at, setAt] = useState({ filterKey, index: 0 });
  const index = at.filterKey === filterKey ? at.index : 0;

  const list = useInfiniteQuery({
    queryKey: adminKeys.list(endpoint, params),
    queryFn: ({ pageParam, signal }) => adminGet<Page<T>>(endpoint + query({ ...params, cursor: pageParam || undefined }), signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const pages = list.data?.pages ?? [];
  const page = pages[Math.min(index, pages.length - 1)];
  // Each answer counts, even one equal to the last (the cache then keeps the same page object): a row that changed back is still news.
  const answer = page ? `${list.dataUpdatedAt}:${index}` : null;
  const fresh = useLiveHighlight(answer, page?.items.map(rowKey) ?? [], ENDPOINT_TABLES[endpoint]);

  const change = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const next = async () => {
    if (index + 1 >= pages.length) {
      const r = await list.fetchNextPage();
      if (r.isError) return;
    }
    setAt({ filterKey, index: index + 1 });
  };
  const from = index * 50 + 1;
  const error = csvError || (list.error ? errorText(list.error) : '');

  return (
    <section aria-labelledby={`${endpoint}-title`}>
      <h1 id={`${endpoint}-title`} className="adm-h1">
        {title}
      </h1>
      <div className="adm-tools">
        {filters.map((f) => (
          <Select key={f.name} label={f.label} value={values[f.name] ?? ''} onChange={(v) => change(f.name, v)} options={[{ value: '', label: 'All' }, ...f.options]} />
        ))}
        {sorts.length > 0 && <Select label="Sort" value={sort} onChange={setSort} options={sorts} />}
        {search && (
          <form
            role="search"
            className="adm-search"
            onSubmit={(e) => {
              e.preventDefault();
              setQ(text.trim());
            }}
          >
            <TextField
              size="small"
              type="search"
              label={search}
              value={text}
              onChange={(e) => setText(e.target.value)}
              helperText={searchHint}
              inputProps={{ maxLength: 254 }}
            />
            <Button type="submit" variant="outline">
              Search
            </Button>
          </form>
        )}
        {csv && (
          <Button
            variant="solid"
            className="adm-gap-t"
            onClick={() => {
              setCsvError('');
              downloadCSV(`${endpoint}.csv` + query(params)).catch((e) => setCsvError(errorText(e)));
            }}
          >
            Download CSV
          </Button>
        )}
      </div>
      {error && <Alert severity="error" className="adm-gap-b">{error}</Alert>}
      {page && (
        <>
          <p role="status" className="adm-muted adm-gap-b1">
            {page.total === 0
              ? 'Nothing matches'
              : `${from}–${from + page.items.length - 1} of ${page.totalAtLeast ? 'more than ' : ''}${page.total.toLocaleString('en-GB')}`}
          </p>
          <div className="adm-table-frame">
            <table aria-label={title} className="adm-table adm-cards">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th key={c.label} scope="col">
                      {c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {page.items.map((item) => (
                  <ListRow key={rowKey(item)} item={item} columns={columns} expand={expand} fresh={fresh.has(rowKey(item))} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="adm-row adm-gap-t">
            <Button disabled={index === 0} onClick={() => setAt({ filterKey, index: index - 1 })}>
              Previous page
            </Button>
            <Button disabled={!page.nextCursor || list.isFetchingNextPage} onClick={() => void next()}>
              Next page
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

/** The highlight lasts LIVE_HIGHLIGHT_MS (admin.css reads it from this variable). */
const LIVE_STYLE = { '--adm-live-ms': `${LIVE_HIGHLIGHT_MS}ms` } as CSSProperties;

function ListRow<T>({ item, columns, expand, fresh }: { item: T; columns: Column<T>[]; expand?: Props<T>['expand']; fresh?: boolean }) {
  return (
    <>
      <tr data-live={fresh ? 'new' : undefined} className={fresh ? 'adm-live-new' : undefined} style={fresh ? LIVE_STYLE : undefined}>
        {columns.map((c) => (
          <td key={c.label} data-label={c.label}>
            {c.render(item)}
          </td>
        ))}
      </tr>
      {expand && (
        <tr>
          <td colSpan={columns.length} className="adm-expand">
            {expand(item)}
          </td>
        </tr>
      )}
    </>
  );
}
