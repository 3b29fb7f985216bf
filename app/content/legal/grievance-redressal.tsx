import { Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { ExternalLink } from '~/components/external-link'
import { legalLinkClass, LinkedText } from '~/components/legal-document-view'
import { telHref, type BusinessDetails, type Officer } from '~/domain/business-details'
import { firstContactStep, SCORES_URL, SMART_ODR_URL } from './regulatory'
import { GRIEVANCE_RESOLUTION_DAYS, SEBI_OIAE_ADDRESS, SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS } from './rules'

const headingClass = 'mt-10 text-xl font-semibold'
const cellClass = 'border border-gray-300 px-3 py-2 text-left align-top dark:border-gray-700'

/**
 * /grievance-redressal: who we are, whom to contact in which order, and the three steps SEBI's
 * MITC sets out (us, then SCORES, then SMART ODR), with SEBI's 21-day limit.
 */
export function GrievanceRedressal({ details }: { details: BusinessDetails }) {
  const escalationMatrix: [level: string, designation: string, officer: Officer][] = [
    ['Level 1', 'Grievance Officer', details.grievanceOfficer],
    ['Level 2', 'Customer Care Officer', details.customerCareOfficer],
    ['Level 3', 'Principal Officer', details.principalOfficer],
    ['Level 4', 'Compliance Officer', details.complianceOfficer],
  ]
  return (
    <article className="max-w-5xl">
      <h1 className="text-2xl font-semibold">Grievance Redressal</h1>
      <p className="mt-3 leading-relaxed">
        If something is wrong with our service, tell us: we want to put it right. This page explains whom to contact,
        how long we take, and how to escalate a complaint to SEBI if we do not resolve it.
      </p>

      <section>
        <h2 id="registration" className={headingClass}>
          Registration details
        </h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <Detail term="Registered name">{details.name}</Detail>
          <Detail term="Type of registration">Research Analyst (SEBI)</Detail>
          <Detail term="SEBI registration number">{details.sebiRegistrationNumber}</Detail>
          <Detail term="BSE enlistment number">{details.bseEnlistmentNumber}</Detail>
          <Detail term="Registered office">{details.address}</Detail>
          <Detail term="Support e-mail">
            <a href={`mailto:${details.supportEmail}`} className={legalLinkClass}>
              {details.supportEmail}
            </a>
          </Detail>
          <Detail term="Support phone">
            <a href={telHref(details.supportPhone)} className={legalLinkClass}>
              {details.supportPhone}
            </a>
          </Detail>
          <Detail term="WhatsApp">{details.whatsappNumber}</Detail>
          <Detail term="Working hours">{details.workingHours}</Detail>
        </dl>
      </section>

      <section>
        <h2 id="officers" className={headingClass}>
          Our officers
        </h2>
        <p className="mt-3 leading-relaxed">
          Your first contact for any complaint is our Grievance Officer (or the complaint form). If you are not
          satisfied with the reply, write to the next level.
        </p>
        <ScrollableTable label="Our officers">
          <ColumnHeaders columns={['Level', 'Designation', 'Name', 'Phone', 'E-mail', 'Working hours']} />
          <tbody>
            {escalationMatrix.map(([level, designation, officer]) => (
              <tr key={designation}>
                <td className={`${cellClass} whitespace-nowrap`}>{level}</td>
                <th scope="row" className={`${cellClass} font-normal`}>
                  {designation}
                </th>
                <td className={cellClass}>{officer.name}</td>
                <td className={`${cellClass} whitespace-nowrap`}>
                  <a href={telHref(officer.phone)} className={legalLinkClass}>
                    {officer.phone}
                  </a>
                </td>
                <td className={`${cellClass} break-words`}>
                  <a href={`mailto:${officer.email}`} className={legalLinkClass}>
                    {officer.email}
                  </a>
                </td>
                <td className={cellClass}>{details.workingHours}</td>
              </tr>
            ))}
          </tbody>
        </ScrollableTable>
      </section>

      <section>
        <h2 id="steps" className={headingClass}>
          How to lodge and escalate a complaint
        </h2>
        <ol className="mt-3 space-y-4">
          <li>
            <h3 className="font-semibold">Step 1: complain to us</h3>
            <p className="mt-1 leading-relaxed">
              <LinkedText
                text={`${firstContactStep(details)} The form works logged in, or as a visitor once you confirm your mobile number or e-mail address with a code we send you. You can also write to ${details.supportEmail} or call ${details.supportPhone} (${details.workingHours}), giving your name, your registered mobile number, the service concerned and what went wrong; we enter it in the same register. Either way you get a reference number (such as CMP-2026-000123) and the date by which we will resolve it, by e-mail or SMS, and each answer of ours the same way; if you have an account, you also see them under [Your complaints](/complaints). We try to resolve every complaint at once. As per applicable SEBI circulars, we resolve complaints about the service itself (such as a report not received, pages missing or a download not working) within ${SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS} business days (Monday to Friday, except public holidays), and every complaint within ${GRIEVANCE_RESOLUTION_DAYS} days of receiving it.`}
              />
            </p>
          </li>
          <li>
            <h3 className="font-semibold">Step 2: escalate to SEBI on SCORES</h3>
            <p className="mt-1 leading-relaxed">
              If we have not resolved your complaint within {GRIEVANCE_RESOLUTION_DAYS} days of receiving it, or you are
              not satisfied with our reply, lodge it with SEBI on SCORES:{' '}
              <ExternalLink href={SCORES_URL} className={legalLinkClass}>
                {SCORES_URL}
              </ExternalLink>
              . Complaints on SCORES are reviewed first by the Research Analyst Administration and Supervisory Body
              (BSE) and then by SEBI.
            </p>
          </li>
          <li>
            <h3 className="font-semibold">Step 3: online dispute resolution</h3>
            <p className="mt-1 leading-relaxed">
              If you are still not satisfied, start online conciliation and arbitration on the SMART ODR portal:{' '}
              <ExternalLink href={SMART_ODR_URL} className={legalLinkClass}>
                {SMART_ODR_URL}
              </ExternalLink>
              .
            </p>
          </li>
        </ol>
        <p className="mt-4 leading-relaxed">
          Why {GRIEVANCE_RESOLUTION_DAYS} days: SEBI&apos;s investor charter for research analysts (June 2025) requires
          us to resolve a complaint immediately and in any case within {GRIEVANCE_RESOLUTION_DAYS} days of receiving it,
          and SCORES gives the same time for complaints lodged there. You can also send a complaint in writing to the{' '}
          {SEBI_OIAE_ADDRESS}.
        </p>
      </section>

      <section>
        <h2 id="toll-free" className={headingClass}>
          Toll-free numbers
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6">
          {details.tollFreeNumbers.map((number) => (
            <li key={number}>
              <a href={telHref(number)} className={legalLinkClass}>
                {number}
              </a>
            </li>
          ))}
        </ul>
      </section>

      <p className="mt-10 leading-relaxed">
        Our monthly complaint figures are on the{' '}
        <Link to="/complaint-board" className={legalLinkClass}>
          Complaint Board
        </Link>
        , and your rights as an investor are in our{' '}
        <Link to="/investor-charter" className={legalLinkClass}>
          Investor Charter
        </Link>
        .
      </p>
    </article>
  )
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="font-semibold">{term}</dt>
      <dd className="break-words">{children}</dd>
    </>
  )
}
