/** An image with a separate source for the system's dark mode; no JavaScript involved. */
export function ThemedImage({
  light,
  dark,
  alt,
  size,
  className,
}: {
  light: string
  dark: string
  alt: string
  size: number
  className: string
}) {
  return (
    <picture>
      <source srcSet={dark} media="(prefers-color-scheme: dark)" />
      <img src={light} alt={alt} width={size} height={size} className={className} />
    </picture>
  )
}
