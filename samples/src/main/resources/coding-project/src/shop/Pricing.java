package shop;

/** Order pricing. */
public final class Pricing {

    private Pricing() {
    }

    /** The total to pay for a subtotal: orders of 100.00 or more get 10% off. */
    public static double total(double subtotal) {
        if (subtotal > 100.0) {
            return subtotal * 0.9;
        }
        return subtotal;
    }
}
