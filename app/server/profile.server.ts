import type { ProfileDetails } from '~/domain/profile'
import { prisma } from './db.server'

export async function saveProfileDetails(userId: string, details: ProfileDetails): Promise<void> {
  await prisma.user.update({
    where: { id: userId },
    data: { name: details.name, email: details.email, dateOfBirth: new Date(`${details.dob}T00:00:00Z`), pan: details.pan },
  })
}

/** The recorded click-accept: when, which version, from where, and a hash of the exact text shown. */
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
