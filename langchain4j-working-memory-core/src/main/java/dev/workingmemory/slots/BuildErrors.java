package dev.workingmemory.slots;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The errors build tools report line by line, each in its own format: compiler errors (javac through Maven or
 * Gradle, gcc-style, Kotlin, TypeScript, rustc, go, C# and MSVC through MSBuild, Pyright), the linker's unresolved
 * symbols, CMake's errors, Python linters' findings (Ruff, Flake8, Pylint), failing tests (Maven Surefire's summaries,
 * Gradle, JUnit's console launcher, pytest, unittest, Jest, Vitest, Mocha, go test with testify, RSpec, PHPUnit,
 * ScalaTest, Playwright), PHP's parse and fatal errors, Rust panics and merge conflicts. Each error becomes one item,
 * its file goes to the pool. Thread-safe (stateless).
 *
 * <p>Only these formats count: a line merely containing "error" or "failed" (a commit message, an issue title, a
 * log of a passing build) is no error.
 */
final class BuildErrors {

    /** Longer lines are not matched against the patterns below (they are not compiler output). */
    static final int MAX_LINE = 2000;

    private static final Pattern MAVEN_COMPILER = Pattern.compile("^\\[ERROR] (\\S+\\.\\w{1,10}):\\[(\\d+),\\d+] (.+)$");
    private static final Pattern COMPILER = Pattern.compile("^(\\S+\\.\\w{1,10}):(\\d+):(?:\\d+:)? (?:fatal )?error: ?(.+)$");
    private static final Pattern KOTLIN = Pattern.compile("^e: (?:file://)?(\\S+\\.kts?):(\\d+):\\d+:? (.+)$");
    private static final Pattern TYPESCRIPT = Pattern.compile(
            "^(\\S+\\.[cm]?[jt]sx?)(?:\\((\\d+),\\d+\\):|:(\\d+):\\d+ -) error (TS\\d+): ?(.+)$");
    /**
     * javac's {@code symbol:} line. The spaces before the symbol and the symbol are taken once (atomic): when the end is
     * no line's end, giving the spaces back one by one would read the rest again from each.
     */
    static final Pattern SYMBOL = Pattern.compile("^(?:\\[ERROR])?\\s+symbol:(?> +(.+))$");
    private static final Pattern SUREFIRE_SECTION = Pattern.compile("^\\[ERROR] (?:Failures|Errors|Failed tests|Tests in error): ?$");
    private static final Pattern SUREFIRE_ITEM = Pattern.compile("^\\[ERROR] {2,}(\\S.*)$");
    private static final Pattern SUREFIRE_RUN = Pattern.compile("^\\[ERROR] {2,}(?:Run \\d+:|\\[ERROR]).*");
    /** Surefire 2's plain summary ("Failed tests:", "Tests in error:"), its entries indented by two spaces. */
    private static final Pattern SUREFIRE_PLAIN_SECTION = Pattern.compile("^(?:Failed tests|Tests in error): ?$");
    private static final Pattern SUREFIRE_PLAIN_ITEM = Pattern.compile("^ {2}(?! *Run \\d+:)(\\S.*)$");
    private static final Pattern GRADLE_TEST = Pattern.compile("^([A-Za-z_][\\w.$]*) > (.+) FAILED$");
    /**
     * pytest's summary: {@code FAILED tests/test_cart.py::test_total - assert 3 == 4}. What follows the test's word is
     * checked once first: else the test would be read again to its end from each ".py" in it.
     */
    static final Pattern PYTEST_FAILED = Pattern.compile("^FAILED (?=\\S++(?: - .+)?$)(\\S+?\\.py)(::\\S+)?(?: - (.+))?$");
    static final Pattern PYTEST_ERROR = Pattern.compile("^ERROR (?=\\S++(?: - .+)?$)(\\S+?\\.py)(::\\S+)?(?: - (.+))?$");
    private static final Pattern PYTEST_E_LINE = Pattern.compile("^E +(\\w[\\w.]*(?:Error|Exception)\\b.*)$");
    /** unittest's header of a failed test: {@code ERROR: test_x (tests.test_y.Case.test_x)}. */
    private static final Pattern UNITTEST = Pattern.compile("^(?:ERROR|FAIL): (\\w+) \\(([\\w.]+)\\)(?: .*)?$");
    private static final Pattern PY_FILE = Pattern.compile("^\\s+File \"([^\"]+)\", line \\d+");
    /** A Rust panic: {@code thread 'main' panicked at src/main.rs:5:10:} (message on the next line), or before 1.73 {@code panicked at 'message', src/main.rs:5:10}. */
    private static final Pattern RUST_PANIC = Pattern.compile("^thread '([^']{1,200})' panicked at (?:'(.*)', )?(\\S+?):(\\d+):\\d+:?$");
    private static final Pattern JEST_FILE = Pattern.compile("^\\s*FAIL +(\\S+)");
    /** Vitest's failed test: {@code FAIL  file > suite > test}, its error on the next line. */
    private static final Pattern VITEST_TEST = Pattern.compile("^\\s*FAIL +(\\S+) > (.+)$");
    private static final Pattern ERROR_MESSAGE = Pattern.compile("^\\s*((?:[\\w.]*(?:Error|Exception)|Expected)\\b:? .+)$");
    /** A test in a suite ({@code ● Cart › applies the discount}): the bullet's text, checked once for its separator. */
    static final Pattern JEST_TEST = Pattern.compile("^\\s*\u25CF (?=.+ \u203A .)(.+)$");
    /**
     * Jest's failed test outside any {@code describe}: {@code ● adds numbers}, under the {@code FAIL} line of its file;
     * Jest's own headings with the same bullet ({@link #JEST_HEADINGS}) name no test.
     */
    private static final Pattern JEST_TOP_LEVEL_TEST = Pattern.compile("^\\s*\u25CF (\\S.*)$");
    /** What Jest heads with a bullet besides a failed test: logged output, and a file that could not be run. */
    private static final Set<String> JEST_HEADINGS = Set.of("Console", "Test suite failed to run");
    private static final Pattern RUST = Pattern.compile("^error(?:\\[E\\d{1,5}])?: (.+)$");
    private static final Pattern RUST_LOCATION = Pattern.compile("^\\s*--> (\\S+):(\\d+):\\d+$");
    private static final Pattern GO = Pattern.compile("^(\\S+\\.go):(\\d+):\\d+: (.+)$");
    private static final Pattern GO_TEST = Pattern.compile("^\\s*--- FAIL: (\\S+) \\(");
    private static final Pattern GO_TEST_MESSAGE = Pattern.compile("^\\s+(\\S+_test\\.go):(\\d+): (.+)$");
    static final Pattern ESLINT = Pattern.compile("^\\s+(\\d+):\\d+ +error ++(.+?)(?:(?<! ) {2,}+(\\S++))?$");
    private static final Pattern MOCHA_FAILING = Pattern.compile("^\\s+\\d+ failing$");
    private static final Pattern MOCHA_ENTRY = Pattern.compile("^\\s+\\d+\\) (.+)$");
    private static final Pattern JS_FRAME_FILE = Pattern.compile("^\\s+at (?:[^()]*\\()?((?:file://)?[^()\\s]+):(\\d+):\\d+\\)?$");
    /** A line that is only a source location, as Next.js prints it above its message: {@code ./app/page.tsx:12:5}. */
    private static final Pattern LOCATION_ALONE = Pattern.compile("^\\s*(\\S+\\.\\w{1,10}):(\\d+)(?::\\d+)?:?\\s*$");
    /** The message under a location alone: {@code Type error: Property 'x' does not exist on type 'Post'.}. */
    private static final Pattern MESSAGE_BELOW = Pattern.compile("^\\s*((?:\\w+ )?(?:[Ee]rror|ERROR)\\b:? ?.+)$");
    /** PHP's parse and fatal errors: {@code PHP Parse error:  syntax error, … in /app/index.php on line 14}. */
    private static final Pattern PHP = Pattern.compile(
            "^(?:PHP )?(?:Parse|Fatal|Recoverable fatal) error: +(.+?) in (\\S+\\.php)(?: on line |:)(\\d+)$");
    /**
     * MSBuild's error format, which the C# and F# compilers and MSVC print through it:
     * {@code Services/Cart.cs(27,17): error CS0103: The name 'x' does not exist … [/src/Shop/Shop.csproj]}.
     */
    private static final Pattern MSBUILD = Pattern.compile(
            "^\\s*(\\S+\\.\\w{1,10})\\((\\d+)(?:,\\d+)?\\): (?:fatal )?error ([A-Z]{1,4}\\d{1,5}): ?(.+?)(?: \\[[^\\]]*])?$");
    /**
     * A Python linter's finding (Ruff, Flake8, Pylint): {@code src/cart.py:14:5: F841 Local variable …}; the
     * conventions' and warnings' codes ({@code C…}, {@code W…}) are no errors.
     */
    private static final Pattern PY_LINT = Pattern.compile("^(\\S+\\.pyi?):(\\d+):\\d+: ([A-BD-VX-Z]{1,3}\\d{2,4}):? (.+)$");
    /** RSpec's list of failed examples: {@code rspec ./spec/cart_spec.rb:12 # Cart#total applies the discount}. */
    private static final Pattern RSPEC = Pattern.compile("^rspec (\\S+\\.rb):(\\d+) # (.+)$");
    /** PHPUnit's section of failures or errors, then its entries {@code 1) Tests\CartTest::testDiscount}. */
    private static final Pattern PHPUNIT_SECTION = Pattern.compile("^There (?:was|were) \\d+ (?:failure|error)s?:$");
    // the entry is one word holding "::", checked once: split at each "::" of it, the rest would be read again
    static final Pattern PHPUNIT_ENTRY = Pattern.compile("^\\d+\\) (?=\\S+::\\S)(\\S++)$");
    private static final Pattern PHPUNIT_FILE = Pattern.compile("^(\\S+\\.php):\\d+$");
    /** ScalaTest's failed test ({@code [info] - should apply the discount *** FAILED ***}), its message under it. */
    private static final Pattern SCALATEST = Pattern.compile("^(?:\\[info] )?- (.+) \\*\\*\\* FAILED \\*\\*\\*$");
    /**
     * The message under it: {@code [info]   3 did not equal 4 (CartSpec.scala:12)}. The indent is taken whole, so the
     * message is read once, not once more for each character given back; a location with no message before it keeps
     * its match, the indent's second-last character as the message.
     */
    static final Pattern SCALATEST_MESSAGE = Pattern.compile(
            "^(?:\\[info])?(?:\\s++|\\s+(?=\\s \\())(.+?) \\((\\S+\\.scala):(\\d+)\\)$");
    /** A location, a dash, then the error, as Pyright prints it: {@code src/cart.py:27:12 - error: Argument …}. */
    private static final Pattern DASH_LOCATION = Pattern.compile("^\\s*(\\S+\\.\\w{1,10}):(\\d+):\\d+ - error: (.+)$");
    /** GNU ld's unresolved symbol: {@code cart.c:(.text+0x4a): undefined reference to `apply_discount'}. */
    private static final Pattern LINKER = Pattern.compile("^(\\S+\\.\\w{1,10}):\\(\\.[\\w.]+\\+0x[0-9a-f]+\\): (undefined reference to .+)$");
    /** CMake's error, its message indented under it: {@code CMake Error at CMakeLists.txt:14 (find_package):}. */
    private static final Pattern CMAKE = Pattern.compile("^CMake Error at (\\S+):(\\d+) \\((\\w+)\\):$");
    /** Playwright's failed test: {@code 1) [chromium] › checkout.spec.ts:12:7 › checkout › applies the discount ───}. */
    private static final Pattern PLAYWRIGHT = Pattern.compile("^\\s+\\d+\\) \\[[^\\]]+] › (\\S+?):(\\d+):\\d+ › (.+?)(?: ─+)?$");
    /** The JUnit Platform console launcher's failure: {@code JUnit Jupiter:CartTest:appliesDiscount()}, then {@code => …}. */
    private static final Pattern JUNIT_CONSOLE = Pattern.compile("^\\s+JUnit [\\w ]+:(\\S+)$");
    private static final Pattern JUNIT_CONSOLE_CAUSE = Pattern.compile("^\\s+=> (?:[\\w$]+\\.)*([\\w$]+: .+)$");
    /** Testify's failure under a go test location: {@code Error Trace: …}, then {@code Error: Not equal:}. */
    private static final Pattern TESTIFY_LOCATION = Pattern.compile("^\\s+\\S+_test\\.go:\\d+:\\s*$");
    // the white space and the message are taken once (atomic), as SYMBOL's
    static final Pattern TESTIFY_ERROR = Pattern.compile("^\\s*Error:(?>\\s+(.+))$");
    /**
     * Maven's last word on a failed build: {@code [ERROR] Failed to execute goal <group>:<artifact>:<version>:<goal>
     * (<execution>) on project <project>: <message>}; an error item only when the output gave no other (a plugin's
     * failure, such as Flyway's migration, has no line of its own in the formats above).
     */
    private static final Pattern MAVEN_GOAL_FAILED = Pattern.compile("^\\[ERROR] Failed to execute goal"
            + " [\\w.-]+:([\\w.-]+):[\\w.-]+:([\\w.-]+) \\([^)]*\\) on project [\\w.-]+: (.+)$");
    private static final Pattern LEADING_EXCEPTION = Pattern.compile("(?:[\\w$]+\\.)+[\\w$]*(?:Exception|Error): ");
    private static final Pattern CONFLICT = Pattern.compile("^CONFLICT \\(([^)]{1,40})\\): (?:Merge conflict in (.+)|(.+))$");

    private BuildErrors() {
    }

    static void find(List<String> lines, Found found) {
        String jestFile = null;
        String lintedFile = null;
        String goalFailed = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > MAX_LINE || line.isBlank()) {
                continue;
            }
            Matcher m;
            if (line.startsWith("[ERROR] ")) {
                if ((m = MAVEN_COMPILER.matcher(line)).matches()) {
                    compilerError(found, m.group(1), m.group(2), m.group(3), symbolAfter(lines, i));
                } else if (SUREFIRE_SECTION.matcher(line).matches()) {
                    i = surefireSection(lines, i + 1, found) - 1;
                } else if (goalFailed == null && (m = MAVEN_GOAL_FAILED.matcher(line)).matches()) {
                    goalFailed = m.group(1) + ":" + m.group(2) + " failed: " + withoutExceptionClass(m.group(3));
                }
                continue;
            }
            if (line.contains("error")) {
                if ((m = COMPILER.matcher(line)).matches()) {
                    compilerError(found, m.group(1), m.group(2), m.group(3), symbolAfter(lines, i));
                    continue;
                }
                if ((m = TYPESCRIPT.matcher(line)).matches()) {
                    String at = m.group(2) != null ? m.group(2) : m.group(3);
                    compilerError(found, m.group(1), at, m.group(4) + ": " + m.group(5), null);
                    continue;
                }
                if (line.contains("): ") && (m = MSBUILD.matcher(line)).matches()) {
                    compilerError(found, m.group(1), m.group(2), m.group(3) + ": " + m.group(4), null);
                    continue;
                }
                if (line.contains(" - error: ") && (m = DASH_LOCATION.matcher(line)).matches()) {
                    compilerError(found, m.group(1), m.group(2), m.group(3), null);
                    continue;
                }
            }
            if (line.contains("undefined reference to ") && (m = LINKER.matcher(line)).matches()) {
                found.add(Found.ERROR, FilePaths.fileName(m.group(1)) + ": " + m.group(2));
                found.path(m.group(1));
                continue;
            }
            if (line.startsWith("CMake Error at ") && (m = CMAKE.matcher(line)).matches()) {
                String message = nextIndented(lines, i);
                compilerError(found, m.group(1), m.group(2), m.group(3) + (message == null ? "" : ": " + message), null);
                continue;
            }
            if (line.contains("JUnit ") && (m = JUNIT_CONSOLE.matcher(line)).matches()) {
                for (int j = i + 1; j < Math.min(lines.size(), i + 4); j++) {
                    Matcher cause = lines.get(j).length() <= MAX_LINE ? JUNIT_CONSOLE_CAUSE.matcher(lines.get(j)) : null;
                    if (cause != null && cause.matches()) {
                        found.add(Found.ERROR, m.group(1) + ": " + cause.group(1));
                        break;
                    }
                }
                continue;
            }
            if (line.contains("] › ") && (m = PLAYWRIGHT.matcher(line)).matches()) {
                String message = nextErrorMessage(lines, i);
                compilerError(found, m.group(1), m.group(2), m.group(3) + (message == null ? "" : ": " + message), null);
                continue;
            }
            if (line.contains(".py") && (m = PY_LINT.matcher(line)).matches()) {
                compilerError(found, m.group(1), m.group(2), m.group(3) + " " + m.group(4), null);
                continue;
            }
            if (line.startsWith("thread '") && (m = RUST_PANIC.matcher(line)).matches()) {
                String message = m.group(2) != null ? m.group(2) : i + 1 < lines.size() ? lines.get(i + 1).strip() : "";
                found.add(Found.ERROR, m.group(1) + " panicked at " + FilePaths.fileName(m.group(3)) + ":" + m.group(4)
                        + (message.isEmpty() ? "" : ": " + message));
                found.path(m.group(3));
                continue;
            }
            if ((line.startsWith("ERROR: ") || line.startsWith("FAIL: ")) && (m = UNITTEST.matcher(line)).matches()) {
                unittest(lines, i, m, found);
                continue;
            }
            if (line.startsWith("error") && (m = RUST.matcher(line)).matches() && i + 1 < lines.size()) {
                Matcher at = RUST_LOCATION.matcher(lines.get(i + 1));
                if (at.matches()) {
                    compilerError(found, at.group(1), at.group(2), m.group(1), null);
                }
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0)) && line.indexOf(' ') < 0 && FilePaths.isFile(line)) {
                lintedFile = line; // ESLint prints each file alone on a line, then its problems indented
                continue;
            }
            if (lintedFile != null && line.contains(" error ") && (m = ESLINT.matcher(line)).matches()) {
                String rule = m.group(3) == null ? "" : " (" + m.group(3) + ")";
                compilerError(found, lintedFile, m.group(1), m.group(2).strip() + rule, null);
                continue;
            }
            if (line.indexOf(':') > 0 && (m = LOCATION_ALONE.matcher(line)).matches()
                    && CodingEvidence.hasSourceLocation(line.strip())) {
                String message = nextNonBlank(lines, i);
                Matcher below = message == null || message.length() > MAX_LINE
                        || message.strip().startsWith("Error Trace:") ? null : MESSAGE_BELOW.matcher(message);
                if (below != null && below.matches()) {
                    compilerError(found, m.group(1), m.group(2), below.group(1).strip(), null);
                    continue;
                }
            }
            if (line.contains(" error: ") && line.contains(".php") && (m = PHP.matcher(line)).matches()) {
                compilerError(found, m.group(2), m.group(3), m.group(1).strip(), null);
                continue;
            }
            if (line.contains(".go:") && (m = GO.matcher(line)).matches()) {
                compilerError(found, m.group(1), m.group(2), m.group(3), null);
            } else if (line.contains("--- FAIL: ") && (m = GO_TEST.matcher(line)).lookingAt()) {
                String message = goTestMessage(lines, i);
                found.add(Found.ERROR, m.group(1) + (message == null ? " failed" : ": " + message));
            } else if (line.endsWith(" failing") && MOCHA_FAILING.matcher(line).matches()) {
                i = mocha(lines, i + 1, found) - 1;
            } else if (line.startsWith("e: ") && (m = KOTLIN.matcher(line)).matches()) {
                compilerError(found, m.group(1), m.group(2), m.group(3), null);
            } else if (line.endsWith(" FAILED") && (m = GRADLE_TEST.matcher(line)).matches()) {
                String detail = nextIndented(lines, i);
                found.add(Found.ERROR, m.group(1) + " > " + m.group(2) + " FAILED" + (detail == null ? "" : ": " + detail));
            } else if (line.startsWith("FAILED ") && (m = PYTEST_FAILED.matcher(line)).matches()) {
                pytest(lines, found, m, i);
            } else if (line.startsWith("ERROR ") && (m = PYTEST_ERROR.matcher(line)).matches()) {
                pytest(lines, found, m, i);
            } else if (line.contains(" > ") && (m = VITEST_TEST.matcher(line)).matches()) {
                String message = nextErrorMessage(lines, i);
                found.add(Found.ERROR, FilePaths.fileName(m.group(1)) + ": " + m.group(2).strip()
                        + (message == null ? "" : ": " + message));
                found.path(m.group(1));
            } else if ((line.startsWith("Failed tests") || line.startsWith("Tests in error"))
                    && SUREFIRE_PLAIN_SECTION.matcher(line).matches()) {
                i = surefirePlainSection(lines, i + 1, found) - 1;
            } else if (line.contains("FAIL ") && (m = JEST_FILE.matcher(line)).lookingAt()) {
                jestFile = m.group(1);
            } else if (line.indexOf('\u25CF') >= 0 && (m = JEST_TEST.matcher(line)).matches()) {
                found.add(Found.ERROR, (jestFile == null ? "" : FilePaths.fileName(jestFile) + ": ") + m.group(1).strip());
                found.path(jestFile);
            } else if (jestFile != null && line.indexOf('\u25CF') >= 0
                    && (m = JEST_TOP_LEVEL_TEST.matcher(line)).matches() && !JEST_HEADINGS.contains(m.group(1).strip())) {
                found.add(Found.ERROR, FilePaths.fileName(jestFile) + ": " + m.group(1).strip());
                found.path(jestFile);
            } else if (line.startsWith("rspec ") && (m = RSPEC.matcher(line)).matches()) {
                compilerError(found, m.group(1), m.group(2), m.group(3), null);
            } else if (line.startsWith("There w") && PHPUNIT_SECTION.matcher(line).matches()) {
                i = phpunit(lines, i + 1, found) - 1;
            } else if (line.endsWith("*** FAILED ***") && (m = SCALATEST.matcher(line)).matches()) {
                Matcher message = i + 1 < lines.size() && lines.get(i + 1).length() <= MAX_LINE
                        ? SCALATEST_MESSAGE.matcher(lines.get(i + 1)) : null;
                if (message != null && message.matches()) {
                    compilerError(found, message.group(2), message.group(3), m.group(1) + ": " + message.group(1), null);
                } else {
                    found.add(Found.ERROR, m.group(1) + " FAILED");
                }
            } else if (line.startsWith("CONFLICT (") && (m = CONFLICT.matcher(line)).matches()) {
                if (m.group(2) != null) {
                    found.add(Found.ERROR, "Merge conflict in " + m.group(2).strip());
                    found.path(m.group(2));
                } else {
                    found.add(Found.ERROR, "Conflict (" + m.group(1) + "): " + m.group(3));
                }
            }
        }
        if (goalFailed != null && !found.has(Found.ERROR)) {
            found.add(Found.ERROR, goalFailed);
        }
    }

    /** {@code org.flywaydb.core.FlywayException: Migration V7 failed} as {@code Migration V7 failed}. */
    private static String withoutExceptionClass(String message) {
        Matcher exception = LEADING_EXCEPTION.matcher(message);
        return exception.lookingAt() && exception.end() < message.length() ? message.substring(exception.end())
                : message;
    }

    /**
     * The {@code file_test.go:N: message} line go test prints next to a failed test (before it with -v, after without),
     * or under a location alone, testify's {@code Error:} with its expected and actual values.
     */
    private static String goTestMessage(List<String> lines, int i) {
        for (int j = Math.max(0, i - 5); j < Math.min(lines.size(), i + 6); j++) {
            String line = lines.get(j);
            if (line.length() <= MAX_LINE) {
                Matcher m = GO_TEST_MESSAGE.matcher(line);
                if (m.matches()) {
                    return m.group(1) + ":" + m.group(2) + ": " + m.group(3).strip();
                }
                String testify = TESTIFY_LOCATION.matcher(line).matches() ? testifyMessage(lines, j) : null;
                if (testify != null) {
                    return line.strip() + " " + testify;
                }
            }
        }
        return null;
    }

    /** Testify's {@code Error:} under the location at {@code at}, with the lines that continue it (expected, actual). */
    private static String testifyMessage(List<String> lines, int at) {
        for (int j = at + 1; j < Math.min(lines.size(), at + 6); j++) {
            String line = lines.get(j);
            Matcher m = line.length() <= MAX_LINE ? TESTIFY_ERROR.matcher(line) : null;
            if (m != null && m.matches()) {
                StringBuilder message = new StringBuilder(m.group(1).strip());
                for (int k = j + 1; k < Math.min(lines.size(), j + 4); k++) {
                    String next = lines.get(k).strip();
                    if (!next.startsWith("expected") && !next.startsWith("actual")) {
                        break;
                    }
                    message.append(' ').append(next);
                }
                return message.toString();
            }
        }
        return null;
    }

    /**
     * Mocha's failures after "N failing": a numbered title (suite and test, over one or more lines), the error message,
     * and a stack whose first project frame gives the file. Returns the index after the section.
     */
    private static int mocha(List<String> lines, int from, Found found) {
        int i = from;
        while (i < lines.size()) {
            String line = lines.get(i);
            Matcher entry = line.length() <= MAX_LINE ? MOCHA_ENTRY.matcher(line) : null;
            if (entry == null || !entry.matches()) {
                if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                    return i; // the section ended
                }
                i++;
                continue;
            }
            StringBuilder title = new StringBuilder(entry.group(1).strip());
            i++;
            while (i < lines.size() && !lines.get(i).isBlank()) {
                title.append(' ').append(lines.get(i).strip());
                i++;
            }
            String message = null;
            String file = null;
            while (i < lines.size() && !(MOCHA_ENTRY.matcher(lines.get(i)).matches())) {
                String text = lines.get(i).strip();
                if (message == null && !text.isEmpty()) {
                    message = text;
                }
                Matcher frame = lines.get(i).length() <= MAX_LINE ? JS_FRAME_FILE.matcher(lines.get(i)) : null;
                if (file == null && frame != null && frame.matches() && !frame.group(1).startsWith("node:")
                        && !frame.group(1).contains("node_modules")) {
                    file = frame.group(1);
                }
                if (!lines.get(i).isBlank() && !Character.isWhitespace(lines.get(i).charAt(0))) {
                    break;
                }
                i++;
            }
            String name = title.toString().endsWith(":") ? title.substring(0, title.length() - 1) : title.toString();
            found.add(Found.ERROR, name + (message == null ? "" : ": " + message));
            found.path(file);
        }
        return i;
    }

    /**
     * PHPUnit's failures after "There was 1 failure:": a numbered test ({@code Tests\CartTest::testDiscount}), its
     * message on the next line, the test's file and line after it. Returns the index after the section.
     */
    private static int phpunit(List<String> lines, int from, Found found) {
        int i = from;
        String test = null;
        String message = null;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > MAX_LINE || line.startsWith("FAILURES!") || line.startsWith("ERRORS!")) {
                break; // the summary; "--" between two failures is not an end
            }
            Matcher m;
            if ((m = PHPUNIT_ENTRY.matcher(line)).matches()) {
                test = m.group(1);
                message = null;
            } else if (test != null && message == null && !line.isBlank()) {
                message = line.strip();
                found.add(Found.ERROR, test + ": " + message);
            } else if (test != null && (m = PHPUNIT_FILE.matcher(line.strip())).matches()) {
                found.path(m.group(1));
                test = null;
            }
        }
        return i;
    }

    private static void compilerError(Found found, String path, String line, String message, String symbol) {
        if (message.startsWith("warning")) {
            return;
        }
        String file = FilePaths.fileName(path.startsWith("file://") ? path.substring(7) : path);
        found.add(Found.ERROR, file + ":" + line + ": " + message.strip() + (symbol == null ? "" : " (symbol: " + symbol + ")"));
        found.path(path);
    }

    /** The {@code symbol:} javac prints under "cannot find symbol", within the next few lines. */
    private static String symbolAfter(List<String> lines, int i) {
        for (int j = i + 1; j < Math.min(lines.size(), i + 5); j++) {
            String line = lines.get(j);
            if (line.length() <= MAX_LINE) {
                Matcher m = SYMBOL.matcher(line);
                if (m.matches()) {
                    return m.group(1).strip();
                }
            }
        }
        return null;
    }

    /** Reads the entries of a Surefire "Failures:" or "Errors:" section; returns the index after it. */
    private static int surefireSection(List<String> lines, int from, Found found) {
        int i = from;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > MAX_LINE) {
                break;
            }
            Matcher m = SUREFIRE_ITEM.matcher(line);
            if (!m.matches()) {
                break;
            }
            if (!SUREFIRE_RUN.matcher(line).matches()) {
                found.add(Found.ERROR, m.group(1));
            }
        }
        return i;
    }

    /**
     * A unittest failure: the test and the exception its traceback ends with; the traceback's innermost project file
     * goes to the pool.
     */
    private static void unittest(List<String> lines, int header, Matcher test, Found found) {
        String file = null;
        String exception = null;
        for (int j = header + 1; j < Math.min(lines.size(), header + 200) && exception == null; j++) {
            String line = lines.get(j);
            if (line.isBlank() || line.length() > MAX_LINE || line.startsWith("---") || line.startsWith("Traceback")) {
                continue;
            }
            Matcher frame = PY_FILE.matcher(line);
            if (frame.lookingAt()) {
                file = StackTraces.isProjectPath(frame.group(1)) ? frame.group(1) : file;
            } else if (!Character.isWhitespace(line.charAt(0))) {
                exception = line.strip();
            }
        }
        found.add(Found.ERROR, test.group(1) + " (" + test.group(2) + ")" + (exception == null ? "" : ": " + exception));
        found.path(file);
    }

    /** Reads the entries of a Surefire 2 "Failed tests:" or "Tests in error:" section; returns the index after it. */
    private static int surefirePlainSection(List<String> lines, int from, Found found) {
        int i = from;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > MAX_LINE || !line.startsWith("  ")) {
                break;
            }
            Matcher m = SUREFIRE_PLAIN_ITEM.matcher(line);
            if (m.matches()) {
                found.add(Found.ERROR, m.group(1).strip());
            }
        }
        return i;
    }

    /** The error message on the first non-blank line after line {@code i}, when it is one ({@code AssertionError: …}). */
    private static String nextErrorMessage(List<String> lines, int i) {
        for (int j = i + 1; j < Math.min(lines.size(), i + 3); j++) {
            String line = lines.get(j);
            if (!line.isBlank()) {
                Matcher m = line.length() <= MAX_LINE ? ERROR_MESSAGE.matcher(line) : null;
                return m != null && m.matches() ? m.group(1).strip() : null;
            }
        }
        return null;
    }

    private static void pytest(List<String> lines, Found found, Matcher m, int i) {
        String message = m.group(3) != null ? m.group(3) : firstELine(lines, i);
        String test = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        found.add(Found.ERROR, test + (message == null ? "" : " - " + message));
        found.path(m.group(1));
    }

    /** pytest's first {@code E   SomeError: ...} line: the message of an error reported without one. */
    private static String firstELine(List<String> lines, int before) {
        for (int j = 0; j < before; j++) {
            String line = lines.get(j);
            if (line.startsWith("E ") && line.length() <= MAX_LINE) {
                Matcher m = PYTEST_E_LINE.matcher(line);
                if (m.matches()) {
                    return m.group(1).strip();
                }
            }
        }
        return null;
    }

    /** The first non-blank line after line {@code i}, or null. */
    private static String nextNonBlank(List<String> lines, int i) {
        for (int j = i + 1; j < lines.size(); j++) {
            if (!lines.get(j).isBlank()) {
                return lines.get(j);
            }
        }
        return null;
    }

    /** The next non-blank line when it is indented (Gradle prints a failed test's exception under it). */
    private static String nextIndented(List<String> lines, int i) {
        for (int j = i + 1; j < Math.min(lines.size(), i + 3); j++) {
            String line = lines.get(j);
            if (!line.isBlank()) {
                return Character.isWhitespace(line.charAt(0)) ? line.strip() : null;
            }
        }
        return null;
    }
}
