// The top bar: the brand, only permitted links, the username and Logout on wide screens; on
// phones a Menu button that opens the admin navigation (which holds Logout there).
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { NavLink } from 'react-router';
import { ADMIN_AREA } from '@boardwalk/contract/staff-tabs';
import { useSiteInfo } from '../../lib/site.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { LogoutButton } from './logout-button.tsx';

/** The links of the staff area, each with the permission that shows it. */
const LINKS = [{ to: '/admin', label: 'Admin', permission: ADMIN_AREA }] as const;

export function StaffNavbar({ user, onMenu }: { user: StaffUser; onMenu: () => void }) {
  const brand = useSiteInfo()?.brandName;
  return (
    <Navbar variant="dark" className="staff-navbar">
      <Container fluid>
        <Navbar.Brand as="span" className="fw-semibold">
          {brand ? `${brand} Back Office` : 'Back Office'}
        </Navbar.Brand>
        <Button variant="outline-light" size="sm" className="d-lg-none" aria-controls="staff-menu" onClick={onMenu}>
          Menu
        </Button>
        <Nav className="me-auto d-none d-lg-flex" as="ul">
          {LINKS.filter((link) => hasPermission(user, link.permission)).map((link) => (
            <Nav.Item as="li" key={link.to}>
              <Nav.Link as={NavLink} to={link.to} eventKey={link.to}>
                {link.label}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
        <div className="d-none d-lg-flex align-items-center gap-3">
          <span className="navbar-text staff-navbar__user">{user.teamMemberUsername}</span>
          <LogoutButton variant="outline-light" />
        </div>
      </Container>
    </Navbar>
  );
}
