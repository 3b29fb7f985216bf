import { cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react'
import { Scripts } from 'react-router'

/** The type that keeps React Router's boot module in the page as data until the page has painted. */
export const BOOT_MODULE_TYPE = 'text/x-module-after-first-paint'
const BOOT_MODULE_ID = 'boot-module'

/**
 * Turns the data block back into a module script, with the module preloads before it, once the page has painted
 * its first text; at once in a tab that is not shown (nothing paints there), and after 3 s at the latest (a browser
 * without paint timing). A script element of its own, with the page's nonce (CSP). Written small: it is in every
 * page's first TCP window (`g` starts, `d` is the data block, `s` says it started).
 */
const START_AFTER_FIRST_PAINT = `(()=>{let s=0;const g=()=>{const d=document.getElementById('${BOOT_MODULE_ID}');if(s||!d)return;s=1;\
for(const h of d.dataset.preloads.split(' ')){const l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.append(l)}\
const m=document.createElement('script');m.type='module';m.nonce=d.nonce;m.text=d.text;d.replaceWith(m)};\
setTimeout(g,3e3);if(document.visibilityState!='visible')return g();\
new PerformanceObserver(l=>{l.getEntriesByName('first-contentful-paint').length&&g()}).observe({type:'paint',buffered:!0})})()`

type ScriptsOutput = ReactElement<{ rel?: string; href?: string; type?: string; children?: ReactNode }>

/** Calls `visit` on each element of React Router's `<Scripts>` output, rebuilding it from what `visit` returns. */
function mapElements(node: ReactNode, visit: (element: ScriptsOutput) => ReactNode): ReactNode {
  if (Array.isArray(node)) return node.map((child: ReactNode) => mapElements(child, visit))
  if (!isValidElement(node)) return node
  const element = node as ScriptsOutput
  if (element.type !== Fragment) return visit(element)
  const { children } = element.props
  const mapped = (Array.isArray(children) ? children : [children]).map((child: ReactNode) => mapElements(child, visit))
  return cloneElement(element, undefined, ...mapped)
}

const isModulePreload = (element: ScriptsOutput) => element.type === 'link' && element.props.rel === 'modulepreload'

/**
 * React Router's `<Scripts>`, but the page's JavaScript is fetched after its first paint instead of alongside its
 * stylesheet: no module preloads in the HTML, and the boot module (which imports the route modules and starts
 * hydration) kept as a data block, with the preloads it needs, until the browser reports its first contentful paint.
 * Every page reads and works without JavaScript, so painting first costs a later hydration only; on a slow network
 * the stylesheet no longer shares the connection with 110 KB of scripts (docs/decisions/061-scripts-after-the-first-paint.md).
 */
export function ScriptsAfterFirstPaint({ nonce }: { nonce: string }) {
  // Called, not rendered, to rework what it returns; its hooks are this component's.
  const scripts = Scripts({ nonce })
  if (!scripts) return null
  const preloads: string[] = []
  mapElements(scripts, (element) => {
    if (isModulePreload(element) && element.props.href) preloads.push(element.props.href)
    return element
  })
  const kept = mapElements(scripts, (element) => {
    if (isModulePreload(element)) return null
    if (element.type !== 'script' || element.props.type !== 'module') return element
    const asData = { type: BOOT_MODULE_TYPE, id: BOOT_MODULE_ID, async: undefined, 'data-preloads': preloads.join(' ') }
    return cloneElement(element, asData as Partial<ScriptsOutput['props']>)
  })
  return (
    <>
      {kept}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: START_AFTER_FIRST_PAINT }} />
    </>
  )
}
