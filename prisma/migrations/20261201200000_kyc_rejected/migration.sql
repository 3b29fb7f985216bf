-- A KRA may hold a KYC as rejected (a document did not match): paying is refused, as for on hold and not found.
ALTER TYPE "KycStatus" ADD VALUE 'REJECTED';
