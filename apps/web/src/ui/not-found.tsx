import { Link } from 'react-router';
import { PageHeading } from './page-heading.tsx';

export function NotFound() {
  return (
    <section className="panel panel--narrow" aria-labelledby="not-found-heading">
      <PageHeading id="not-found-heading">Page not found</PageHeading>
      <p>There is nothing at this address. Check the link, or look up your ticket or pass from the home page.</p>
      <Link to="/" className="btn btn-primary">
        Go to the home page
      </Link>
    </section>
  );
}
