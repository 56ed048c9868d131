import { useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_PATH } from '../config/constants';
import { Icon } from './icons';

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
  // At most SEARCH_MAX_WIDTH_PX (600 px) wide: .search in styles/site.css.
  return (
    <form role="search" aria-label="Search Salaula" onSubmit={submit} className="search">
      <input
        ref={inputRef}
        type="search"
        name="q"
        aria-label="Search"
        placeholder="Search..."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        autoComplete="off"
        className="search-input"
      />
      <button type="submit" aria-label="Search" className="icon-btn icon-btn-s">
        <Icon name="search" />
      </button>
    </form>
  );
}
