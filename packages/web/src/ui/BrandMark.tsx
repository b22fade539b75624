interface BrandMarkProps {
  name: string;
  logo?: string;
  size?: number;
  /** Show the name beside the mark. */
  showName?: boolean;
  className?: string;
}

/** Product mark: the domain's logo when configured, otherwise the built-in emblem. */
export function BrandMark({ name, logo, size = 32, showName = true, className }: BrandMarkProps) {
  return (
    <span className={className ? `yyp-brand ${className}` : 'yyp-brand'}>
      {logo ? (
        <img src={logo} alt="" width={size} height={size} className="yyp-brand__logo" />
      ) : (
        <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" className="yyp-brand__logo">
          <rect width="64" height="64" rx="14" fill="#1664ff" />
          <circle cx="32" cy="32" r="17" fill="none" stroke="#fff" strokeWidth="5" />
          <path d="M32 22v20M22 32h20" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
        </svg>
      )}
      {showName && <span className="yyp-brand__name">{name}</span>}
    </span>
  );
}
