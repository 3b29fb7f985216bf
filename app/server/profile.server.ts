import type { DeclaredFamilyMember } from '~/domain/family'
import { panTakenMessage, type ProfileDetails } from '~/domain/profile'
import { Prisma } from '~/generated/prisma/client'
import { businessDetails } from './business.server'
import { prisma } from './db.server'
import { replaceFamilyMembers } from './family.server'
import { storePanCard, type PanCardUpload } from './pan-card-image.server'

export type SaveDetailsOutcome = { ok: true } | { ok: false; field: 'pan'; message: string }

/**
 * Step 1 of the profile: the details and, from the page, the family members' PANs (the API's
 * clients send none: `family` undefined leaves them as they are). A PAN another account holds is
 * refused by the unique index, so two accounts saving one PAN at once cannot both have it.
 */
export async function saveProfileDetails(
  userId: string,
  details: ProfileDetails,
  family?: readonly DeclaredFamilyMember[],
): Promise<SaveDetailsOutcome> {
  try {
    await prisma.$transaction(async (tx) => {
      await tx.user.update({
        where: { id: userId },
        data: {
          name: details.name,
          email: details.email,
          dateOfBirth: new Date(`${details.dob}T00:00:00Z`),
          pan: details.pan,
        },
      })
      if (family) await replaceFamilyMembers(tx, userId, family)
      // Never one's own family member, whichever way the PAN came.
      await tx.familyMember.deleteMany({ where: { userId, pan: details.pan } })
    })
    return { ok: true }
  } catch (error) {
    // users.pan is the only unique column this writes (family rows are replaced under the user's lock).
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return { ok: false, field: 'pan', message: panTakenMessage(businessDetails.supportEmail) }
    }
    throw error
  }
}

/** The recorded click-accept (agreement-signing.server.ts): when, which version, from where, and a hash of the exact text shown. */
export async function recordAgreementAcceptance(
  userId: string,
  acceptance: { version: string; textSha256: string; ip: string },
  now = new Date(),
): Promise<void> {
  await prisma.user.update({
    where: { id: userId },
    data: {
      agreementAcceptedAt: now,
      agreementVersion: acceptance.version,
      agreementTextSha256: acceptance.textSha256,
      agreementIp: acceptance.ip,
    },
  })
}

/** Stores the card and points the user at it; the replaced file is deleted only once the row says so. */
export async function savePanCard(
  user: { id: string; panCardKey: string | null },
  upload: PanCardUpload,
): Promise<void> {
  await storePanCard(user.id, upload, user.panCardKey, {
    recordKey: async (key) => {
      // Conditional on the key this upload replaces: of two racing uploads, the later one fails
      // instead of orphaning the other's file.
      const saved = await prisma.user.updateMany({
        where: { id: user.id, panCardKey: user.panCardKey },
        data: { panCardKey: key },
      })
      if (saved.count !== 1) throw new Error('The PAN card changed during this upload; try again')
    },
  })
}
