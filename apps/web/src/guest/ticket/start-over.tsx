import Button, { type ButtonProps } from 'react-bootstrap/Button';

/** The actions row of a page that ends a visit: Start Over goes back to the login form. */
export function StartOverActions({
  onStartOver,
  variant = 'outline-secondary',
  className = 'actions',
}: {
  onStartOver: () => void;
  variant?: ButtonProps['variant'];
  className?: string;
}) {
  return (
    <div className={className}>
      <Button variant={variant} onClick={onStartOver}>
        Start Over
      </Button>
    </div>
  );
}
