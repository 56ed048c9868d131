import { useCallback, useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { adminGet, downloadCSV, query, type Page } from './api';
import { ENDPOINT_TABLES, liveRowSx, useLiveHighlight, useLiveTick } from './live';

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
  /** Bumped by the parent to reload the current page after a change. */
  reloadKey?: number;
  /** Shown under a row when given (the inbox's reply and note). */
  expand?: (item: T, reload: () => void) => ReactNode;
}

/**
 * ListView is one of the console's tables: filters, a search, a sort, pages
 * of 50 through the API's keyset cursors, and "Download CSV" of what the
 * filters show.
 */
export function ListView<T>({ title, endpoint, filters = [], sorts = [], search, searchHint, columns, rowKey, csv = true, reloadKey = 0, expand }: Props<T>) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState(sorts[0]?.value ?? '');
  const [cursors, setCursors] = useState<string[]>([]); // cursors of the pages before this one, then this page's
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const live = useLiveTick(ENDPOINT_TABLES[endpoint]);

  const params = { ...values, q: q || undefined, sort: sort && sort !== sorts[0]?.value ? sort : undefined };
  const cursor = cursors[cursors.length - 1];
  const path = endpoint + query({ ...params, cursor });

  useEffect(() => {
    let live = true;
    adminGet<Page<T>>(path)
      .then((p) => {
        if (!live) return;
        setPage(p);
        setError('');
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [path, tick, reloadKey, live.tick]);
  const fresh = useLiveHighlight(page, page?.items.map(rowKey) ?? [], live);

  const change = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setCursors([]);
  };
  const from = cursors.length * 50 + 1;

  return (
    <Box component="section" aria-labelledby={`${endpoint}-title`}>
      <Typography id={`${endpoint}-title`} variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ mb: 2, flexWrap: "wrap" }}>
        {filters.map((f) => (
          <TextField
            key={f.name}
            select
            size="small"
            label={f.label}
            value={values[f.name] ?? ''}
            onChange={(e) => change(f.name, e.target.value)}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">All</MenuItem>
            {f.options.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        ))}
        {sorts.length > 0 && (
          <TextField select size="small" label="Sort" value={sort} onChange={(e) => (setSort(e.target.value), setCursors([]))} sx={{ minWidth: 160 }}>
            {sorts.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        )}
        {search && (
          <Box
            component="form"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              setQ(text.trim());
              setCursors([]);
            }}
            sx={{ display: 'flex', gap: 1 }}
          >
            <TextField
              size="small"
              type="search"
              label={search}
              value={text}
              onChange={(e) => setText(e.target.value)}
              helperText={searchHint}
              slotProps={{ htmlInput: { maxLength: 254 } }}
            />
            <Button type="submit" variant="outlined">
              Search
            </Button>
          </Box>
        )}
        {csv && (
          <Button
            variant="contained"
            onClick={() => downloadCSV(`${endpoint}.csv` + query(params)).catch((e: Error) => setError(e.message))}
          >
            Download CSV
          </Button>
        )}
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {page && (
        <>
          <Typography role="status" sx={{ mb: 1 }} color="text.secondary">
            {page.total === 0
              ? 'Nothing matches'
              : `${from}–${from + page.items.length - 1} of ${page.totalAtLeast ? 'more than ' : ''}${page.total.toLocaleString('en-GB')}`}
          </Typography>
          <TableContainer sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" aria-label={title} sx={cardsOnAPhone}>
              <TableHead>
                <TableRow>
                  {columns.map((c) => (
                    <TableCell key={c.label} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                      {c.label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {page.items.map((item) => (
                  <ListRow key={rowKey(item)} item={item} columns={columns} expand={expand} reload={reload} fresh={fresh.has(rowKey(item))} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
            <Button disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Previous page
            </Button>
            <Button disabled={!page.nextCursor} onClick={() => page.nextCursor && setCursors((c) => [...c, page.nextCursor!])}>
              Next page
            </Button>
          </Stack>
        </>
      )}
    </Box>
  );
}

/**
 * Below 600 px a table is a list of cards: one row a card, each cell a line
 * with its column's name, so nothing scrolls sideways on a phone.
 */
const cardsOnAPhone = {
  '@media (max-width: 599.95px)': {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'block', borderBottom: 1, borderColor: 'divider', py: 1 },
    '& tbody td': { display: 'flex', gap: 1, border: 0, py: 0.5, overflowWrap: 'anywhere' },
    '& tbody td[data-label]::before': { content: 'attr(data-label)', fontWeight: 700, flex: '0 0 38%' },
  },
} as const;

function ListRow<T>({ item, columns, expand, reload, fresh }: { item: T; columns: Column<T>[]; expand?: Props<T>['expand']; reload: () => void; fresh?: boolean }) {
  return (
    <>
      <TableRow data-live={fresh ? 'new' : undefined} sx={fresh ? liveRowSx : undefined}>
        {columns.map((c) => (
          <TableCell key={c.label} data-label={c.label} sx={{ verticalAlign: 'top' }}>
            {c.render(item)}
          </TableCell>
        ))}
      </TableRow>
      {expand && (
        <TableRow>
          <TableCell colSpan={columns.length} sx={{ bgcolor: 'action.hover' }}>
            {expand(item, reload)}
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
