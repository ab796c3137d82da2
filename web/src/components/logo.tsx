/** The Pipit mark (decorative: the name is always written beside it). */
export function Logo() {
  return (
    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" class="logo-bg" />
      <path d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z" class="logo-fg" />
    </svg>
  );
}
