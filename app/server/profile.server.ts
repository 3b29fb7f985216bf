import type { ProfileDetails } from '~/domain/profile'
import { prisma } from './db.server'
import { storePanCard, type PanCardUpload } from './pan-card-image.server'

export async function saveProfileDetails(userId: string, details: ProfileDetails): Promise<void> {
  await prisma.user.update({
    where: { id: userId },
    data: {
      name: details.name,
      email: details.email,
      dateOfBirth: new Date(`${details.dob}T00:00:00Z`),
      pan: details.pan,
    },
  })
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
