export const SERVICE_DESCRIPTION_FALLBACK = 'Service description goes here.'

/** A service's description lines as bullets, or the original store's fallback line (docs/product.md) if none. */
export function ServiceDescription({ lines, className = '' }: { lines: readonly string[]; className?: string }) {
  return (
    <ul className={`list-disc space-y-1 pl-6 text-sm text-gray-700 dark:text-gray-300 ${className}`}>
      {lines.length > 0 ? (
        lines.map((line, index) => <li key={index}>{line}</li>)
      ) : (
        <li>{SERVICE_DESCRIPTION_FALLBACK}</li>
      )}
    </ul>
  )
}
