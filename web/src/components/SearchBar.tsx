import { useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-router';
import { SEARCH_MAX_WIDTH_PX, SEARCH_PATH } from '../config/constants';

export interface SearchBarProps {
  inputRef?: Ref<HTMLInputElement>;
  /** Escape in the box (used by the small-screen search to close itself). */
  onEscape?: () => void;
  /** Called after a search was sent. */
  onSearched?: () => void;
}

/**
 * The search box of the main bar (placeholder 'Search...', at most 600 px
 * wide). The shop is not open yet, so a search goes to the catalogue's
 * coming-soon page with the words in ?q=; an empty search does nothing.
 */
export function SearchBar({ inputRef, onEscape, onSearched }: SearchBarProps) {
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  function submit(e: FormEvent) {
    e.preventDefault();
    const q = query.trim();
    if (!q) return;
    navigate(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
    onSearched?.();
  }
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape' && onEscape) {
      e.preventDefault();
      onEscape();
    }
  }
  return (
    <Box
      component="form"
      role="search"
      aria-label="Search Salaula"
      onSubmit={submit}
      sx={{
        flex: 1,
        maxWidth: SEARCH_MAX_WIDTH_PX,
        display: 'flex',
        alignItems: 'center',
        bgcolor: '#f3efe8',
        border: '1px solid #8a8f8b',
        borderRadius: 999,
        pl: 2,
        '&:focus-within': { outline: '3px solid #f4a261', outlineOffset: 2, boxShadow: '0 0 0 2px #1f2421' },
      }}
    >
      <Box
        component="input"
        ref={inputRef}
        type="search"
        name="q"
        aria-label="Search"
        placeholder="Search..."
        value={query}
        onChange={(e: React.ChangeEvent<HTMLInputElement>) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        autoComplete="off"
        sx={{
          flex: 1,
          minWidth: 0,
          border: 0,
          outline: 0,
          bgcolor: 'transparent',
          font: 'inherit',
          color: 'text.primary',
          py: 1,
          '&::placeholder': { color: '#5f6662', opacity: 1 },
          '&:focus-visible': { outline: 'none' },
        }}
      />
      <IconButton type="submit" aria-label="Search" size="small" sx={{ mr: 0.5 }}>
        <SearchIcon />
      </IconButton>
    </Box>
  );
}
