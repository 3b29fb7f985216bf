import { Link } from 'react-router'
import { REGISTRATION_DISCLAIMER, SCORES_URL, SEBI_STANDARD_WARNING, SMART_ODR_URL } from '~/content/legal/regulatory'
import { telHref, type RegistrationDetails } from '~/domain/business-details'
import { ExternalLink } from './external-link'

const LEGAL_LINKS = [
  { to: '/disclosure', label: 'Disclosure' },
  { to: '/terms-and-conditions', label: 'Terms and Conditions' },
  { to: '/disclaimer', label: 'Disclaimer' },
  { to: '/grievance-redressal', label: 'Grievance Redressal' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/refund-policy', label: 'Refund Policy' },
] as const

const linkClass =
  'text-gray-700 underline underline-offset-2 hover:text-green-700 dark:text-gray-300 dark:hover:text-green-400'

/**
 * On every page, as SEBI requires of a research analyst's website: the registered name and number,
 * the standard warning in its exact words, and the SCORES and SMART ODR links (the ODR circular
 * wants the latter on the home page). `registration` is absent when the root loader did not run.
 */
export function SiteFooter({ registration }: { registration: RegistrationDetails | null }) {
  return (
    <footer className="border-t border-gray-200 bg-gray-50 text-sm print:hidden dark:border-gray-800 dark:bg-gray-900">
      <div className="mx-auto max-w-6xl space-y-3 px-4 py-4">
        <nav aria-label="Legal" className="flex flex-wrap gap-x-4 gap-y-2">
          {LEGAL_LINKS.map((link) => (
            <Link key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </Link>
          ))}
        </nav>
        {registration ? (
          <p className="font-medium">
            {registration.name}, SEBI Registered Research Analyst, Registration No.{' '}
            {registration.sebiRegistrationNumber}, BSE Enlistment No. {registration.bseEnlistmentNumber}
          </p>
        ) : null}
        <p className="font-medium">{SEBI_STANDARD_WARNING}</p>
        <p className="text-gray-700 dark:text-gray-300">{REGISTRATION_DISCLAIMER}</p>
        <p className="text-gray-700 dark:text-gray-300">
          Complaints: to us first (
          <Link to="/complaints/new" className={linkClass}>
            file a complaint
          </Link>
          {registration ? (
            <>
              , or write to our Grievance Officer, {registration.grievanceOfficer.name},{' '}
              <a href={`mailto:${registration.grievanceOfficer.email}`} className={linkClass}>
                {registration.grievanceOfficer.email}
              </a>
              ,{' '}
              <a href={telHref(registration.grievanceOfficer.phone)} className={linkClass}>
                {registration.grievanceOfficer.phone}
              </a>
            </>
          ) : null}
          ; or see Grievance Redressal), then to SEBI on{' '}
          <ExternalLink href={SCORES_URL} className={linkClass}>
            SCORES
          </ExternalLink>
          , then on the{' '}
          <ExternalLink href={SMART_ODR_URL} className={linkClass}>
            SMART ODR portal
          </ExternalLink>
          .
        </p>
      </div>
    </footer>
  )
}
