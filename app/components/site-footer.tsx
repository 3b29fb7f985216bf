import { Link } from 'react-router'

const LEGAL_LINKS = [
  { to: '/disclosure', label: 'Disclosure' },
  { to: '/terms-and-conditions', label: 'Terms and Conditions' },
  { to: '/disclaimer', label: 'Disclaimer' },
  { to: '/grievance-redressal', label: 'Grievance Redressal' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/refund-policy', label: 'Refund Policy' },
] as const

export function SiteFooter() {
  return (
    <footer className="border-t border-gray-200 bg-gray-50 text-sm dark:border-gray-800 dark:bg-gray-900">
      <nav aria-label="Legal" className="mx-auto flex max-w-6xl flex-wrap gap-x-4 gap-y-2 px-4 py-4">
        {LEGAL_LINKS.map((link) => (
          <Link key={link.to} to={link.to} className="text-gray-700 underline-offset-2 hover:underline dark:text-gray-300">
            {link.label}
          </Link>
        ))}
      </nav>
    </footer>
  )
}
