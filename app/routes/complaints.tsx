import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { LinkedText } from '~/components/legal-document-view'
import { COMPLAINT_ESCALATION_LADDER } from '~/content/legal/complaint-escalation'
import { requireUser } from '~/server/auth/sign-in.server'
import { complaintsOf } from '~/server/complaints/register.server'
import type { Route } from './+types/complaints'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Your complaints') }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { complaints: await complaintsOf(user) }
}

export default function Complaints({ loaderData }: Route.ComponentProps) {
  const { complaints } = loaderData
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Your complaints</h1>
      <p className="mt-2">
        <Link to="/complaints/new" className="underline">
          File a complaint
        </Link>
      </p>
      {complaints.length === 0 ? (
        <p className="mt-4">You have filed no complaints.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {complaints.map((complaint) => (
            <li key={complaint.id} className="rounded-md border border-gray-200 p-4 dark:border-gray-700">
              <h2 className="text-lg font-semibold">
                {complaint.reference}: {complaint.category}
              </h2>
              <p className="text-sm">
                Received {complaint.receivedOn}; to be resolved by {complaint.dueOn}. Status: {complaint.status}.
              </p>
              <p className="mt-2 whitespace-pre-line">{complaint.text}</p>
              {complaint.answers.length > 0 ? (
                <>
                  <h3 className="mt-3 font-medium">Our answers</h3>
                  <ul className="mt-1 space-y-2">
                    {complaint.answers.map((answer, index) => (
                      <li key={index}>
                        <p className="text-sm">
                          {answer.sentOn} ({answer.status}):
                        </p>
                        <p className="whitespace-pre-line">{answer.message}</p>
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p className="mt-2 text-sm">No answer yet.</p>
              )}
              <p className="mt-3 text-sm">
                <LinkedText text={COMPLAINT_ESCALATION_LADDER} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
