import Button, { type ButtonProps } from 'react-bootstrap/Button';
import { useTranslations } from 'use-intl';

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
  const t = useTranslations('ticket');
  return (
    <div className={className}>
      <Button variant={variant} onClick={onStartOver}>
        {t('startOver')}
      </Button>
    </div>
  );
}
