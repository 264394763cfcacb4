import Button from 'react-bootstrap/Button';
import { useStaffLogout } from '../auth/use-staff-logout.ts';

/** Logout, beside the member's username: the top bar's on wide screens, the phone menu's. */
export function LogoutButton({ variant }: { variant: string }) {
  const logout = useStaffLogout();
  return (
    <Button variant={variant} size="sm" onClick={logout}>
      Logout
    </Button>
  );
}
