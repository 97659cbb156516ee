package dev.workingmemory.inspector;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium driven through Debian's chromedriver, never a downloaded one (Selenium Manager is not
 * asked: both paths are given). Skips the calling test, saying how to run it, when either is missing. Each instance has
 * a fresh profile directory, removed on close. Not thread-safe: one test drives it.
 */
final class HeadlessChromium implements AutoCloseable {

    static final String BROWSER = System.getenv().getOrDefault("CHROMIUM_BINARY", "/usr/bin/chromium");
    static final String DRIVER = System.getenv().getOrDefault("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver");

    /** Generous: CI machines run the other modules' tests beside this one. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts the browser, or skips the test when there is none. */
    static HeadlessChromium start() {
        Assumptions.assumeTrue(new File(BROWSER).canExecute() && new File(DRIVER).canExecute(),
                "The browser tests need Chromium and its driver (" + BROWSER + ", " + DRIVER + "): install Debian's"
                        + " packages (apt-get install chromium chromium-driver) or run bash .ci/run, which does;"
                        + " CHROMIUM_BINARY and CHROMEDRIVER_BINARY name others");
        try {
            Path profile = Files.createTempDirectory("inspector-chromium");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(BROWSER);
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--user-data-dir=" + profile, "--window-size=1280,1300", "--lang=en-US");
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER))
                    .usingAnyFreePort().build();
            return new HeadlessChromium(new ChromeDriver(service, options), profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    WebDriverWait waiting() {
        return new WebDriverWait(driver, WAIT);
    }

    /** Waits for the element to show and holds text containing {@code text}. */
    WebElement await(By by, String text) {
        return await(by + " holding '" + text + "'", () -> driver.findElements(by).stream()
                .filter(element -> element.getText().contains(text)).findFirst().orElse(null));
    }

    WebElement await(By by) {
        return await(by.toString(), () -> driver.findElements(by).stream().findFirst().orElse(null));
    }

    /** Waits for {@code find} to find an element; fails showing what the page shows instead. */
    private WebElement await(String what, Supplier<WebElement> find) {
        try {
            return waiting().until(d -> find.get());
        } catch (TimeoutException e) {
            String shown = driver.findElement(By.tagName("body")).getText();
            throw new AssertionError("The page did not show " + what + " within " + WAIT.toSeconds()
                    + " s; it shows:\n"
                    + shown.substring(0, Math.min(shown.length(), 4_000)), e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary profile harms nothing
            }
        }
    }
}
