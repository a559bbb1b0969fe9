// Customers with their accounts, aliases with their registration state, recurring payments.
import { Heading } from '../components.js';

export function CustomersView(_: { query: URLSearchParams }) {
  return (
    <section>
      <Heading title="Customers" />
    </section>
  );
}
