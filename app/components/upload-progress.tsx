import { useId, useSyncExternalStore } from 'react'

// A file upload with a visible progress bar, for a route's clientAction: fetch() cannot report how
// much of a request body has been sent, XMLHttpRequest's `upload.onprogress` can. The form is sent
// as a plain form post (the same request and answers as without JavaScript), so the server's
// contract is the one the page already has. Without JavaScript the browser shows its own progress.

/** Percent sent of the upload on its way: null while its size is unknown, undefined when none is. */
let percentSent: number | null | undefined
const listeners = new Set<() => void>()

function setPercentSent(percent: number | null | undefined) {
  percentSent = percent
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export type UploadAnswer =
  /** The server took it: where its redirect led (path and query), for the router to go there. */
  | { ok: true; landedOn: string }
  /** Refused (the page's own message, found by `refusalId` in the page the server answered with) or never answered. */
  | { ok: false; message: string | null }

/**
 * Posts `form` to `url` as a browser's form post would, reporting progress to `UploadProgress`.
 * A refusal's message is the text of the element `refusalId` in the page the server answers with.
 */
export function uploadWithProgress(url: string, form: FormData, refusalId: string): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    let settled = false
    const settle = (answer: UploadAnswer) => {
      if (settled) return
      settled = true
      resolve(answer)
    }
    setPercentSent(0)
    xhr.upload.onprogress = (event) => {
      setPercentSent(event.lengthComputable ? Math.floor((event.loaded / event.total) * 100) : null)
    }
    xhr.onreadystatechange = () => {
      // Taken: the page the redirect leads to is the router's to load, so its body is not waited for.
      if (xhr.readyState === XMLHttpRequest.HEADERS_RECEIVED && xhr.status > 0 && xhr.status < 400) {
        const landed = new URL(xhr.responseURL)
        settle({ ok: true, landedOn: `${landed.pathname}${landed.search}` })
        xhr.abort()
      }
    }
    xhr.onload = () => {
      const message = xhr.responseXML?.getElementById(refusalId)?.textContent?.trim()
      settle({ ok: false, message: message || null })
    }
    xhr.onerror = xhr.onabort = xhr.ontimeout = () => settle({ ok: false, message: null })
    xhr.open('POST', url)
    xhr.responseType = 'document'
    xhr.send(form)
  })
}

/**
 * The upload's progress bar, shown while `uploading`: a labelled progressbar with its percentage
 * in text, announced politely in quarters (every percent would flood a screen reader).
 */
export function UploadProgress({ label, uploading }: { label: string; uploading: boolean }) {
  const id = useId()
  const sent = useSyncExternalStore(
    subscribe,
    () => percentSent,
    () => undefined,
  )
  const percent = uploading ? sent : undefined
  return (
    <div className={percent === undefined ? 'sr-only' : undefined}>
      <p role="status" className="sr-only">
        {typeof percent === 'number' ? `${label}: ${Math.floor(percent / 25) * 25}%` : ''}
      </p>
      {percent !== undefined ? (
        <>
          <label htmlFor={id} className="block text-sm font-medium">
            {label}
          </label>
          <div className="mt-1 flex items-center gap-3">
            <progress id={id} max={100} value={percent ?? undefined} className="h-2 w-full accent-green-700" />
            <span aria-hidden="true" className="w-12 shrink-0 text-right text-sm tabular-nums">
              {percent === null ? '' : `${percent}%`}
            </span>
          </div>
        </>
      ) : null}
    </div>
  )
}
