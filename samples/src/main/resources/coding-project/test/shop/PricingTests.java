package shop;

import java.io.PrintStream;
import java.util.Locale;

/** The tests of Pricing, as a runner that logs every case: run(out) returns the number of failures. */
public final class PricingTests {

    private PricingTests() {
    }

    public static int run(PrintStream out) {
        out.println("[INFO] Running shop.PricingTests");
        int failures = 0;
        int run = 0;
        // every subtotal from 1.00 to 292.00: under 100.00 full price, from 100.00 on 10% off
        for (int cents = 100; cents <= 29_200; cents += 100) {
            double subtotal = cents / 100.0;
            double expected = subtotal >= 100.0 ? Math.round(subtotal * 90.0) / 100.0 : subtotal;
            run++;
            try {
                check(subtotal, expected);
                out.printf(Locale.ROOT, "[INFO] total(%.2f) = %.2f ok%n", subtotal, expected);
            } catch (AssertionError e) {
                failures++;
                out.println("[ERROR] Failures: ");
                out.println("[ERROR]   PricingTests.discount_from_100 " + e.getMessage());
                out.println(e);
                for (StackTraceElement frame : e.getStackTrace()) {
                    if (frame.getClassName().startsWith("shop.")) {
                        out.println("\tat " + frame);
                    }
                }
            }
        }
        out.printf(Locale.ROOT, "[%s] Tests run: %d, Failures: %d%n", failures == 0 ? "INFO" : "ERROR", run, failures);
        out.println(failures == 0 ? "[INFO] BUILD SUCCESS" : "[ERROR] BUILD FAILURE");
        return failures;
    }

    private static void check(double subtotal, double expected) {
        double actual = Math.round(Pricing.total(subtotal) * 100.0) / 100.0;
        if (actual != expected) {
            throw new AssertionError(String.format(Locale.ROOT, "Pricing.total(%.2f): expected %.2f but was %.2f", subtotal, expected, actual));
        }
    }
}
