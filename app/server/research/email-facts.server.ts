import type { ResearchItemView } from '~/domain/research'
import type { EmailBlock } from '../messaging/emails/render-email.server'

/** A call's terms or a follow-up's figures in its e-mail, before the body; a follow-up also names its original. */
export function researchFactBlocks(view: ResearchItemView): EmailBlock[] {
  return [
    ...(view.original
      ? [
          { kind: 'paragraph' as const, text: `${view.kindWords} of: ${view.original.title}` },
          { kind: 'action' as const, label: 'Read the original', path: `/research/${view.original.id}` },
        ]
      : []),
    ...(view.facts.length
      ? [{ kind: 'list' as const, items: view.facts.map(({ label, value }) => `${label}: ${value}`) }]
      : []),
    ...(view.bodyHeading ? [{ kind: 'paragraph' as const, text: `${view.bodyHeading}:` }] : []),
  ]
}
