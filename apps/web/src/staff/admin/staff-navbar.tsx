// The top navigation: only permitted links, the username on wide screens, logout; collapsible
// on narrow screens.
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { NavLink } from 'react-router';
import { ADMIN_AREA } from '@boardwalk/contract/staff-resources';
import { useSiteInfo } from '../../lib/site.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { useStaffLogout } from '../auth/use-staff-logout.ts';

/** The links of the staff area, each with the permission that shows it. */
const LINKS = [{ to: '/admin', label: 'Admin', permission: ADMIN_AREA }] as const;

export function StaffNavbar({ user }: { user: StaffUser }) {
  const logout = useStaffLogout();
  const brand = useSiteInfo()?.brandName;
  return (
    <Navbar expand="lg" variant="dark" className="staff-navbar" collapseOnSelect>
      <Container fluid>
        <Navbar.Brand as="span" className="fw-semibold">
          {brand ? `${brand} Back Office` : 'Back Office'}
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="staff-navbar-menu" label="Menu" />
        <Navbar.Collapse id="staff-navbar-menu">
          <Nav className="me-auto" as="ul">
            {LINKS.filter((link) => hasPermission(user, link.permission)).map((link) => (
              <Nav.Item as="li" key={link.to}>
                <Nav.Link as={NavLink} to={link.to} eventKey={link.to}>
                  {link.label}
                </Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
          <div className="d-flex align-items-center gap-3 py-2 py-lg-0">
            <span className="navbar-text d-none d-lg-inline staff-navbar__user">{user.teamMemberUsername}</span>
            <Button variant="outline-light" size="sm" onClick={logout}>
              Logout
            </Button>
          </div>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
