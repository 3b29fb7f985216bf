/**
 * A link to another website: a new tab that gets neither a handle on this page (noopener) nor the
 * address it came from (noreferrer), announced to screen-reader users.
 */
export function ExternalLink({
  href,
  children,
  className,
}: {
  href: string
  children: React.ReactNode
  className?: string
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}
