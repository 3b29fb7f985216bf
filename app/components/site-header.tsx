import { useEffect, useRef, type MouseEvent } from 'react'
import { Form, Link, NavLink, useLocation } from 'react-router'
import type { RegistrationDetails } from '~/domain/business-details'
import { withRedirectTo } from '~/domain/redirect'
import avatarDark from '~/assets/avatar-dark.svg'
import avatarLight from '~/assets/avatar-light.svg'
import logoDark from '~/assets/logo-dark.svg'
import logoLight from '~/assets/logo-light.svg'
import { ThemedImage } from './themed-image'

const NAV_LINKS = [
  { to: '/services', label: 'Services' },
  { to: '/investor-charter', label: 'Investor Charter' },
  { to: '/performance-report', label: 'Performance Report' },
  { to: '/complaint-board', label: 'Complaint Board' },
] as const

/** `isAdmin` only adds the console link to an admin's menu; everyone else sees no trace of it. */
export type HeaderUser = { name: string | null; isAdmin: boolean }

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  isActive
    ? 'rounded px-3 py-2 font-semibold text-green-700 dark:text-green-400'
    : 'rounded px-3 py-2 text-gray-700 hover:text-green-700 dark:text-gray-200 dark:hover:text-green-400'

const menuItemClass =
  'block rounded px-3 py-2 text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-800'

const panelClass =
  'menu-panel min-w-48 rounded-lg border border-gray-200 bg-white p-2 shadow-lg dark:border-gray-700 dark:bg-gray-900'

/** A link followed in a menu closes the menu at once, not when the next page has loaded (a slow network). */
function closeMenu(event: MouseEvent<HTMLAnchorElement>) {
  event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()
}

/**
 * Both menus are native `popover="auto"` elements: they open, close on an outside click and close
 * each other without JavaScript. With JavaScript, following one of their links closes them, and so
 * does any client-side navigation.
 */
export function SiteHeader({
  user,
  registration,
}: {
  user: HeaderUser | null
  /** The brand and the registered name (the root loader's business details); null when it failed. */
  registration: Pick<RegistrationDetails, 'name' | 'brandName'> | null
}) {
  const location = useLocation()
  // Signing in from a page comes back to it; on /auth itself the link keeps where it was going.
  const signInHref =
    location.pathname === '/auth'
      ? withRedirectTo('/auth', new URLSearchParams(location.search).get('redirectTo'))
      : withRedirectTo('/auth', `${location.pathname}${location.search}`)
  // On a navigation only: a menu opened before the page's scripts arrived (they come after its first
  // paint) stays open when React hydrates the page.
  const shownLocationKey = useRef(location.key)
  useEffect(() => {
    if (shownLocationKey.current === location.key) return
    shownLocationKey.current = location.key
    for (const menu of document.querySelectorAll<HTMLElement>('[popover]:popover-open')) menu.hidePopover()
  }, [location])

  return (
    <header className="sticky top-0 z-20 border-b print:hidden border-gray-200 bg-white/95 backdrop-blur dark:border-gray-800 dark:bg-gray-950/95">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        {/* The home page is a signed-in customer's; a visitor's home is the catalogue, not the sign-in page. */}
        <Link to={user ? '/' : '/services'} className="shrink-0">
          <ThemedImage
            light={logoLight}
            dark={logoDark}
            alt={registration ? `${registration.brandName} home` : 'Home'}
            size={56}
            className="h-auto w-14"
          />
        </Link>
        {registration ? (
          // The logo's text: the brand, and the name registered with SEBI when the brand is another.
          <p className="hidden leading-tight sm:block">
            <span className="font-semibold">{registration.brandName}</span>
            {registration.brandName !== registration.name ? (
              <span className="block text-xs text-gray-600 dark:text-gray-300">{registration.name}</span>
            ) : null}
          </p>
        ) : null}
        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 xl:flex">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <button
            type="button"
            popoverTarget="site-menu"
            aria-label="Menu"
            className="rounded p-2 [anchor-name:--site-menu] text-gray-700 hover:bg-gray-100 xl:hidden dark:text-gray-200 dark:hover:bg-gray-800"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </svg>
          </button>
          <button
            type="button"
            popoverTarget="account-menu"
            aria-label="Account"
            className="rounded-full [anchor-name:--account-menu]"
          >
            <ThemedImage light={avatarLight} dark={avatarDark} alt="" size={40} className="h-auto w-9 xl:w-10" />
          </button>
        </div>
      </div>
      <nav
        id="site-menu"
        popover="auto"
        aria-label="Main menu"
        className={`${panelClass} [position-anchor:--site-menu]`}
      >
        {NAV_LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            onClick={closeMenu}
            className={({ isActive }) =>
              `${menuItemClass} ${isActive ? 'font-semibold text-green-700 dark:text-green-400' : ''}`
            }
          >
            {link.label}
          </NavLink>
        ))}
      </nav>
      <div id="account-menu" popover="auto" className={`${panelClass} [position-anchor:--account-menu]`}>
        {user ? (
          <>
            <Link to="/research" onClick={closeMenu} className={menuItemClass}>
              Research
            </Link>
            <Link to="/subscriptions" onClick={closeMenu} className={menuItemClass}>
              Subscriptions
            </Link>
            <Link to="/invoices" onClick={closeMenu} className={menuItemClass}>
              Invoices
            </Link>
            <Link to="/family-members" onClick={closeMenu} className={menuItemClass}>
              Family members
            </Link>
            <Link to="/account" onClick={closeMenu} className={menuItemClass}>
              Your data
            </Link>
            {user.isAdmin ? (
              <Link to="/admin" onClick={closeMenu} className={menuItemClass}>
                Admin
              </Link>
            ) : null}
            <Form method="post" action="/logout">
              <button type="submit" className={`${menuItemClass} w-full text-left`}>
                Logout
              </button>
            </Form>
          </>
        ) : (
          <Link to={signInHref} onClick={closeMenu} className={menuItemClass}>
            Login/Sign up
          </Link>
        )}
      </div>
    </header>
  )
}
