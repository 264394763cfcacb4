// The back office's navigation, from the contract's one declaration (`navigation`): its groups
// and the tabs the member may see, as links to each tab's address. On wide screens a side
// navigation; on phones a menu the navbar's Menu button opens (Bootstrap's responsive
// offcanvas: one markup for both), which closes when a tab is chosen and also holds Logout.
import Nav from 'react-bootstrap/Nav';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { NavLink } from 'react-router';
import { navigation } from '@boardwalk/contract/staff-navigation';
import type { TabDeclaration } from '@boardwalk/contract/staff-tabs';
import type { StaffUser } from '../auth/staff-session.ts';
import { LogoutButton } from './logout-button.tsx';

/** The address of a tab. */
export const tabPath = (key: string) => `/admin/${key}`;

interface Props {
  user: StaffUser;
  /** The tabs the member may see. */
  shown: TabDeclaration[];
  /** The phone menu is open. */
  open: boolean;
  onClose: () => void;
}

export function AdminNavigation({ user, shown, open, onClose }: Props) {
  const groups = navigation
    .map((group) => ({ title: group.title, tabs: group.tabs.filter((tab) => shown.includes(tab)) }))
    .filter((group) => group.tabs.length > 0);
  // The aside holds the menu in a landmark on wide screens, where the offcanvas is not a dialog.
  return (
    <aside className="staff-sidenav" aria-label="Back office menu">
      <Offcanvas id="staff-menu" responsive="lg" show={open} onHide={onClose} placement="start" aria-labelledby="staff-menu-title">
        <Offcanvas.Header closeButton closeLabel="Close menu">
          <Offcanvas.Title id="staff-menu-title" as="h2" className="h5">
            Menu
          </Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body className="flex-column">
          <nav aria-label="Back office" className="w-100">
            {groups.map((group) => (
              <div key={group.title} className="staff-sidenav__group">
                <p id={`nav-${group.title.toLowerCase()}`} className="staff-sidenav__title">
                  {group.title}
                </p>
                <Nav as="ul" className="flex-column" aria-labelledby={`nav-${group.title.toLowerCase()}`}>
                  {group.tabs.map((tab) => (
                    <Nav.Item as="li" key={tab.key}>
                      <Nav.Link as={NavLink} to={tabPath(tab.key)} eventKey={tab.key} onClick={onClose}>
                        {tab.title}
                      </Nav.Link>
                    </Nav.Item>
                  ))}
                </Nav>
              </div>
            ))}
          </nav>
          <div className="d-lg-none border-top pt-3 mt-2 w-100">
            <p className="mb-2 text-break">{user.teamMemberUsername}</p>
            <LogoutButton variant="outline-secondary" />
          </div>
        </Offcanvas.Body>
      </Offcanvas>
    </aside>
  );
}
