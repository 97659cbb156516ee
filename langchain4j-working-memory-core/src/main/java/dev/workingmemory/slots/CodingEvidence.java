package dev.workingmemory.slots;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.internal.Substrings;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rule that tells a memory it serves a coding agent ({@link SessionActivation#codingEvidence()}): a tool result
 * that is the output of a coding agent's tools. Only tool results count, never what the user or the model says (a
 * plain chat talks about decisions and plans too; a tool that compiles, tests or lists a repository is a coding
 * agent's). One of these in the text the memory analyses ({@code LayerContext#maxAnalyzedChars}) is evidence:
 * <ul>
 *   <li><b>a stack trace</b>: two frames of a Java ({@code at com.acme.App.main(App.java:7)}) or JavaScript
 *       ({@code at run (/app/index.js:12:5)}) trace, a Python traceback, a Go or Rust panic;</li>
 *   <li><b>a compiler, linter or test location</b>: a source file with a line number
 *       ({@code src/App.java:42: error:}, {@code app.ts(3,7): error TS2322}, {@code [ERROR] /x/App.java:[57,41]},
 *       {@code on main.tf line 12}, {@code in /app/index.php on line 14}), with an error word on its line or at
 *       most two lines from it (Next.js prints the location above the message, Terraform below it), or two such
 *       locations;</li>
 *   <li><b>a build, test or package tool's own lines</b>: {@code BUILD SUCCESS}/{@code FAILURE} (Maven, Gradle),
 *       {@code > Task :}, {@code Tests run:}, {@code npm ERR!}, pytest's {@code test session starts}, Go's
 *       {@code --- FAIL:}, cargo's {@code test result:}, Jest's {@code Test Suites:}, Spring Boot's
 *       {@code APPLICATION FAILED TO START}, {@code kubectl}'s {@code Error from server}, and their lines of success
 *       (git's {@code 2 files changed, 8 insertions(+)}, cargo's {@code Finished … target(s) in}, npm's
 *       {@code audited 232 packages}, Go's {@code ok}, Terraform's plan), and what the session
 *       extractor's tool-specific rules recognize: compiler errors and failing tests, stack traces, unresolved
 *       dependencies (one rule per documented message of npm, pip, Maven, cargo, ...), build files and import blocks,
 *       {@code git status} (not its generic rules: an {@code ERROR} log line, an exit code, an HTTP status or an API's
 *       JSON error are no coding agent's by themselves);</li>
 *   <li><b>a diff</b> of a source or build file ({@code --- a/src/App.java} then {@code +++ b/src/App.java}; a CMS's
 *       diff of a page, {@code pages/about.md}, is no code base's), git's ({@code diff --git}) or <b>git's status or
 *       log</b> ({@code Changes not staged for commit:}, {@code commit <sha>});</li>
 *   <li><b>a file listing of a code base</b>: most lines are paths (or {@code ls -l} entries, or tree branches) and at
 *       least two name source or build files ({@code .java}, {@code .py}, {@code pom.xml}, {@code Makefile}, ...);
 *       a media library's {@code .jpg} and {@code .pdf} files are no code base;</li>
 *   <li><b>code</b>: at least four lines of it, a third of the lines or more, one of them led by a keyword
 *       ({@code import}, {@code def}, {@code class}, {@code public}, {@code func}, {@code #include}, ...), or a build
 *       file's telling lines ({@code <artifactId>}, pinned requirements, {@code "devDependencies"}). A line of code
 *       ends a statement ({@code ;}) or opens or closes a block, or is an import, or is in the body of a Python block
 *       (deeper than a {@code def …(…):} or {@code if x == y:} above it), or is a Dockerfile's instruction (its
 *       {@code FROM} of a tagged image counts as the keyword).</li>
 * </ul>
 * A JSON result is evidence when it is a {@code package.json} ({@code "devDependencies"}) or when a string value holds
 * several lines (an {@code {"stdout": "…"}} of a command) that are, read as above; a shop's or a CMS's JSON reply
 * costs three look-ups. None of these is evidence inside a message a person wrote ({@link PersonsMessage}): a support
 * desk's ticket that quotes a customer's stack trace, an email with an installer's output, a forum post with code.
 * Nor in a web page (an HTML document) or a SOAP fault: a site's error page and a failing web service show their own
 * server's trace. Nor what a document quotes in its Markdown fences, prose around them
 * ({@link PersonsMessage#unquoted}): a knowledge-base article's snippet or error, a blog post's code, a fetched
 * README's example.
 *
 * <p>Linear in the text: each line is tested with a few {@code startsWith}/{@code indexOf} calls, a regular
 * expression only after such a cue, and the scan stops at the first evidence. Thread-safe (stateless).
 */
final class CodingEvidence implements SessionActivation {

    static final CodingEvidence INSTANCE = new CodingEvidence();

    /** Lines longer than this are skipped: no signal below is that long. */
    static final int MAX_LINE = 2_000;
    /** JSON string values looked at, at most. */
    private static final int MAX_JSON_STRINGS = 256;
    /** How many lines apart a source location and an error word still speak of one error. */
    private static final int NEAR_LINES = 2;
    /** Plain words in a row that make a line prose ({@link PersonsMessage} asks as many of a person's line). */
    private static final int SENTENCE_WORDS = 6;
    private static final JsonFactory JSON = new JsonFactory();
    /** Keys of an error reply's own trace, lower case without underscores ({@link #isOwnFailure}). */
    private static final Set<String> FAILURE_KEYS = Set.of("stack", "stacktrace", "trace", "traceback", "exception");
    /** Keys of an error reply's error object, which may hold that trace. */
    private static final Set<String> ERROR_KEYS = Set.of("error", "err", "exception");

    /** Extensions of source files, as a line number after them marks a compiler's, linter's or test's location. */
    private static final Set<String> SOURCE = Set.of("java", "kt", "kts", "scala", "groovy", "gradle", "py", "pyi",
            "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue", "svelte", "go", "rs", "rb", "php", "cs", "fs",
            "c", "h", "cc", "cpp", "cxx", "hpp", "swift", "dart", "ex", "exs", "erl", "clj", "lua", "pl", "sh", "bash",
            "ps1", "sql", "proto", "tf", "hcl", "ipynb", "jl", "zig", "nim", "sol");
    /** Build and project files a code base's listing names. */
    private static final Set<String> BUILD_FILES = Set.of("pom.xml", "build.gradle", "build.gradle.kts",
            "settings.gradle", "settings.gradle.kts", "gradlew", "package.json", "package-lock.json", "yarn.lock",
            "pnpm-lock.yaml", "tsconfig.json", "requirements.txt", "pyproject.toml", "setup.py", "setup.cfg",
            "Pipfile", "poetry.lock", "go.mod", "go.sum", "Cargo.toml", "Cargo.lock", "Gemfile", "Gemfile.lock",
            "Makefile", "CMakeLists.txt", "Dockerfile", "docker-compose.yml", "Jenkinsfile", "build.sbt", "mix.exs",
            "composer.json", ".gitignore", "mvnw");
    /** Substrings only a build, test or packaging tool prints (looked for in every line). */
    private static final Substrings TOOL_LINES = Substrings.of(List.of("BUILD SUCCESS", "BUILD FAILURE", "BUILD FAILED",
            "[INFO] ---", "[INFO] Building ", "> Task :", "Tests run: ", "npm ERR!", "ERR_PNPM_", "test session starts",
            "short test summary info", "--- FAIL: ", "--- PASS: ", "test result: ", "Test Suites: ", "error: could not compile",
            "FAILURE: Build failed", "Compilation failed", "compilation failed", "make: *** ", "CMake Error",
            "Traceback (most recent call last)", "panicked at ", "goroutine 1 [", "Exception in thread \"",
            "error[E0", ": error TS", "ModuleNotFoundError: ",
            "diff --git ", "Changes not staged for commit:", "Changes to be committed:", "Untracked files:",
            "nothing to commit, working tree clean", "Your branch is up to date with '", "<artifactId>",
            "[ERROR] Failed to execute goal", "* What went wrong:",
            "npm error ", "version solving failed", "No matching distribution found for", "APPLICATION FAILED TO START",
            "Error from server (", "CONFLICT (", "failed to push some refs", "would be overwritten by ",
            "Unmerged paths:", "both modified:",
            " insertions(+)", " insertion(+)", " deletions(-)", " deletion(-)", "] target(s) in ",
            " packages, and audited ", " package, and audited ", "up to date, audited ",
            "Requirement already satisfied: ", "ok  \t", "Bundle complete! ",
            "Determining projects to restore...", "Terraform will perform the following actions",
            "Terraform has been successfully initialized", "Apply complete! Resources: "));
    private static final List<String> ERROR_WORDS = List.of("error", "Error", "ERROR", "warning", "FAIL", "fail",
            "expected", "cannot", "undefined", "unresolved", "not found");
    private static final Pattern JAVA_FRAME = Pattern.compile(
            "^\\s+at (?:[\\w.$-]+/)*[\\w$<>-]+(?:\\.[\\w$<>-]+)+\\((?:[\\w$.-]+\\.\\w+:\\d+|Native Method|Unknown Source)\\)\\s*$");
    /** A JavaScript frame: its location is a file (a path or a name with a dot) with a line and a column. */
    static final Pattern JS_FRAME = Pattern.compile(
            "^\\s+at (?:\\S.{0,200} \\()?(?:file://)?(?=[^()\\s./]*+[./])[^()\\s]*:\\d+:\\d+\\)?\\s*$");
    /** A .NET frame: {@code at Shop.Cart.Add(Item item) in /src/Cart.cs:line 42}. */
    private static final Pattern DOTNET_FRAME = Pattern.compile("^\\s+at [\\w.<>`$]+\\(.*\\) in .+:line \\d+\\s*$");
    private static final Pattern PY_FRAME = Pattern.compile("^\\s+File \"[^\"]+\", line \\d+");
    private static final Pattern COMMIT = Pattern.compile("^commit [0-9a-f]{40}\\b");
    private static final Pattern LONG_LS = Pattern.compile("^[-dl][rwxsStT-]{9}[.@+]?\\s+\\d+\\s.*");
    private CodingEvidence() {
    }

    @Override
    public boolean isEvidence(ChatMessage message) {
        return message instanceof ToolExecutionResultMessage result && isEvidence(Texts.of(result));
    }

    /** Whether a tool result's (analysed) text is a coding agent's output. */
    static boolean isEvidence(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return false;
        }
        char first = trimmed.charAt(0);
        if (first == '{' || first == '[' && looksLikeJsonArray(trimmed)) {
            return json(trimmed);
        }
        return plainText(text);
    }

    /**
     * Whether the text is a SOAP service's fault: the reply of a web service that failed (a travel distribution
     * system's fare search), with its server's trace in the fault's detail.
     */
    private static boolean isSoapFault(String text) {
        return text.startsWith("<", firstNonBlank(text)) && text.contains("Envelope") && (text.contains(":Fault>")
                || text.contains("<Fault>"));
    }

    /**
     * Whether the text is an HTML document: a page a tool fetched, the web's whatever it shows (a site's error page
     * with its server's trace, Django's or Tomcat's, is that site failing, not the agent's code).
     */
    private static boolean isWebPage(String text) {
        int at = firstNonBlank(text);
        return text.regionMatches(true, at, "<!doctype html", 0, 14) || text.regionMatches(true, at, "<html", 0, 5);
    }

    /**
     * A tool's text output: its tools' lines anywhere, then the line-based signals; never a message a person wrote
     * that quotes them ({@link PersonsMessage}).
     */
    private static boolean plainText(String text) {
        return isToolOutput(text) && !PersonsMessage.is(text);
    }

    private static boolean isToolOutput(String text) {
        if (isWebPage(text) || isSoapFault(text)) {
            return false;
        }
        String own = PersonsMessage.unquoted(text);
        return containsToolLine(own) || lines(own);
    }

    /** Where the text's first character that is not white space is; its length when none is. */
    private static int firstNonBlank(String text) {
        int at = 0;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** {@code [} followed by what a JSON array starts with, not by a log level ({@code [INFO]}) or a date. */
    private static boolean looksLikeJsonArray(String text) {
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '{' || c == '"' || c == '[' || c == ']' || c == '-' || Character.isDigit(c) && !isDate(text, i);
            }
        }
        return false;
    }

    private static boolean isDate(String text, int at) {
        return at + 4 < text.length() && text.charAt(at + 4) == '-';
    }

    /**
     * JSON: a {@code package.json}, or a string value of several lines (a command's output) read as a tool's text
     * ({@link #outputs}). A JSON reply of a shop or a CMS holds neither and costs three look-ups.
     */
    private static boolean json(String text) {
        if (text.contains("\"devDependencies\"") || text.contains("\"peerDependencies\"")) {
            return true;
        }
        try {
            return !outputs(text, true).isEmpty();
        } catch (IOException e) {
            return plainText(text); // not JSON after all
        }
    }

    /**
     * The string values of a JSON tool result that are a tool's own output: of several lines ({@code {"stdout": …}}
     * of a command, a test report's failures, a file read whole) and read as a tool's text above. None when the values
     * together are a person's message (a ticket's subject and description beside the trace it attaches), nor the
     * trace a failing service puts in its error reply ({@link #isOwnFailure}).
     *
     * @param text      the tool result, JSON
     * @param firstOnly stop at the first such value (the question is only whether there is one)
     * @throws IOException when the text is not JSON
     */
    static List<String> outputs(String text, boolean firstOnly) throws IOException {
        if (!text.contains("\\n")) {
            return List.of(); // no value holds several lines
        }
        try (JsonParser parser = JSON.createParser(text)) {
            StringBuilder values = new StringBuilder();
            List<String> outputs = new ArrayList<>(1);
            int strings = 0;
            for (JsonToken token = parser.nextToken(); token != null && strings < MAX_JSON_STRINGS;
                    token = parser.nextToken()) {
                if (token == JsonToken.VALUE_STRING) {
                    String value = parser.getText();
                    values.append(value).append('\n');
                    if ((outputs.isEmpty() || !firstOnly) && value.indexOf('\n') >= 0
                            && !isOwnFailure(parser.getParsingContext()) && isToolOutput(value)) {
                        outputs.add(value);
                    }
                    strings++;
                }
            }
            return outputs.isEmpty() || PersonsMessage.is(values.toString()) ? List.of() : outputs;
        }
    }

    /**
     * Whether a JSON string value is the trace of the service that replied, failing: an error reply's own exception,
     * under the key web frameworks give it (Express's {@code stack}, Spring Boot's {@code trace}, a Python service's
     * {@code traceback}, ASP.NET's {@code exception}) at the reply's top or in its {@code error} object. A travel or
     * shop agent's API that fails says nothing of the agent; a command's output ({@code stdout}) and a test report's
     * failures (nested deeper: Mocha's {@code failures[].err.stack}) still count.
     */
    private static boolean isOwnFailure(JsonStreamContext value) {
        if (!value.inObject() || !FAILURE_KEYS.contains(normalKey(value.getCurrentName()))) {
            return false;
        }
        JsonStreamContext parent = value.getParent();
        return parent.inRoot() || parent.inObject() && parent.getParent().inRoot()
                && ERROR_KEYS.contains(normalKey(parent.getCurrentName()));
    }

    /** A JSON key in lower case without underscores; empty for none. */
    private static String normalKey(String key) {
        return key == null ? "" : key.toLowerCase(Locale.ROOT).replace("_", "");
    }

    /** Whether {@code text} holds one of a build, test or package tool's own cues ({@code npm ERR!}, ...). */
    static boolean containsToolLine(String text) {
        return TOOL_LINES.in(text);
    }

    /** The line-based signals of the class comment, over {@code text}. */
    private static boolean lines(String text) {
        Tally tally = new Tally();
        String previous = "";
        int start = 0;
        int length = text.length();
        while (start <= length) {
            int end = Texts.lineEnd(text, start);
            int lineEnd = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
            if (lineEnd - start <= MAX_LINE) {
                String line = text.substring(start, lineEnd);
                if (line.isBlank()) {
                    tally.blank++;
                } else if (decisive(line, previous, tally)) {
                    return true;
                }
                previous = line;
            } else {
                tally.other++;
            }
            start = end + 1;
        }
        return tally.isListing() || tally.isCode() || recognizedByExtraction(text);
    }

    /** Whether a tool-specific rule of the session extractor finds something in {@code text} (see the class comment). */
    private static boolean recognizedByExtraction(String text) {
        List<String> lines = Texts.lines(text);
        Found found = new Found(1, 1, 300);
        BuildErrors.find(lines, found);
        if (found.has(Found.ERROR)) {
            return true;
        }
        StackTraces.find(lines, found, HeuristicSessionExtractor.DEFAULT_LIBRARY_PACKAGES);
        if (found.has(Found.ERROR)) {
            return true;
        }
        UnresolvedDependencies.find(lines, found);
        if (found.has(Found.DEPENDENCY) || Dependencies.declared(text, lines, null, found) || Imports.find(lines, found)
                || found.has(Found.DEPENDENCY)) {
            return true;
        }
        GitStatus.find(lines, found);
        return found.has(Found.POOL);
    }

    /** Counts the line into {@code tally}; true when the line (with the one before) is evidence on its own. */
    private static boolean decisive(String line, String previous, Tally tally) {
        String stripped = line.strip();
        if (stripped.startsWith("at ") && (JAVA_FRAME.matcher(line).matches() || JS_FRAME.matcher(line).matches()
                || DOTNET_FRAME.matcher(line).matches())
                || stripped.startsWith("File \"") && PY_FRAME.matcher(line).lookingAt()) {
            if (++tally.frames >= 2) {
                return true;
            }
        }
        if (line.startsWith("+++ ") && previous.startsWith("--- ") && isDiffOfCode(line)
                || line.startsWith("commit ") && COMMIT.matcher(line).lookingAt()) {
            return true;
        }
        // the error word on the location's line, or on a line near it: Next.js prints the location above the
        // message, esbuild and Terraform below it ("Error: ..." then "on main.tf line 12"); the words are looked for
        // only around a location, not in every line of every tool result while the session waits
        if (hasSourceLocation(line)) {
            if (Texts.containsAny(line, ERROR_WORDS) || tally.recentErrorWord() || ++tally.locations >= 2) {
                return true;
            }
            tally.sinceLocation = 0;
        } else if (tally.sinceLocation <= NEAR_LINES && Texts.containsAny(line, ERROR_WORDS)) {
            return true;
        }
        if (tally.sinceLocation <= NEAR_LINES) {
            tally.sinceLocation++;
        }
        tally.remember(line);
        tally.nonBlank++;
        if (isCodeFile(stripped, line)) {
            tally.codeFiles++;
            tally.paths++;
        } else if (isPath(stripped)) {
            tally.paths++;
        }
        int indent = line.indexOf(stripped.charAt(0));
        if (CodeLines.isStatement(stripped) || Imports.isStatement(stripped)
                || tally.inBlock(indent) && !CodeLines.isNeverCode(stripped)) {
            tally.codeLines++;
            if (CodeLines.startsWithKeyword(stripped)) {
                tally.keywordLines++;
            }
        } else if (CodeLines.isDockerInstruction(stripped)) {
            tally.codeLines++;
            if (CodeLines.isBaseImage(stripped)) {
                tally.keywordLines++;
            }
        } else if (CodeLines.isPinnedRequirement(stripped)) {
            tally.codeLines++;
            tally.keywordLines++;
        }
        tally.block(indent, CodeLines.isBlockHeader(stripped));
        return false;
    }

    /** What the lines of one text showed so far. Not thread-safe: one per text. */
    private static final class Tally {
        /** Non-blank lines since the last source location (1 on the line after it), past {@value #NEAR_LINES} when far. */
        int sinceLocation = NEAR_LINES + 1;
        /** The last {@value #NEAR_LINES} non-blank lines, the latest first. */
        private final String[] recent = new String[NEAR_LINES];
        int frames;
        int locations;
        int nonBlank;
        int blank;
        int other;
        int paths;
        int codeFiles;
        int codeLines;
        int keywordLines;

        void remember(String line) {
            System.arraycopy(recent, 0, recent, 1, recent.length - 1);
            recent[0] = line;
        }

        /** Whether one of the last lines holds an error word. */
        boolean recentErrorWord() {
            for (String line : recent) {
                if (line != null && Texts.containsAny(line, ERROR_WORDS)) {
                    return true;
                }
            }
            return false;
        }

        /** Most lines paths, two of them source or build files. */
        boolean isListing() {
            return codeFiles >= 2 && paths * 10 >= nonBlank * 6;
        }

        /**
         * Where the outermost open block of Python's kind starts ({@code def f():} then lines indented deeper), or -1:
         * the lines of its body are code whatever they end with.
         */
        private int blockIndent = -1;

        /** Whether a line indented so is in the body of an open block. */
        boolean inBlock(int indent) {
            return blockIndent >= 0 && indent > blockIndent;
        }

        /** Opens a block at a header's line, closes it at a line no deeper than its header. */
        void block(int indent, boolean header) {
            if (header) {
                blockIndent = blockIndent < 0 ? indent : Math.min(blockIndent, indent);
            } else if (!inBlock(indent)) {
                blockIndent = -1;
            }
        }

        /** Four lines of code or more, a third of the lines, one led by a keyword. */
        boolean isCode() {
            return codeLines >= 4 && codeLines * 3 >= nonBlank && keywordLines >= 1;
        }
    }

    /**
     * Whether the line holds a source file followed by a line number: {@code App.java:42}, {@code app.ts(3,7)},
     * {@code App.java:[57,41]}.
     */
    static boolean hasSourceLocation(String line) {
        int token = 0; // where the path holding the dot starts, moved forward only: linear in the line
        int scanned = 0;
        for (int dot = line.indexOf('.', 1); dot > 0; dot = line.indexOf('.', dot + 1)) {
            int end = dot + 1;
            while (end < line.length() && end - dot <= 6 && Character.isLetterOrDigit(line.charAt(end))) {
                end++;
            }
            if (end == dot + 1 || end + 1 >= line.length() || !Texts.isWordChar(line.charAt(dot - 1))) {
                continue;
            }
            String extension = line.substring(dot + 1, end).toLowerCase(Locale.ROOT);
            char after = line.charAt(end);
            char next = line.charAt(end + 1);
            boolean number = Character.isDigit(next) || next == '[' && end + 2 < line.length()
                    && Character.isDigit(line.charAt(end + 2));
            boolean located = (after == ':' || after == '(') && number
                    || lineNumberAfter(line, after == ',' ? end + 1 : end); // main.tf line 12, "app.py", line 3
            if (located && SOURCE.contains(extension)) {
                for (; scanned < dot; scanned++) {
                    if (Character.isWhitespace(line.charAt(scanned))) {
                        token = scanned + 1;
                    }
                }
                if (!inSentence(line, token)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the path that starts at {@code line}'s character {@code start} follows a sentence:
     * {@value #SENTENCE_WORDS} plain words or more right before it. A compiler, linter or test runner prints a location
     * at the line's start, after a level or a label ({@code [ERROR] }, {@code e: }), in a frame or after a word or two
     * ({@code in … on line 14}); a person or a web page that names one writes it in a sentence ("the error means … as
     * at checkout.js:14").
     */
    private static boolean inSentence(String line, int start) {
        int words = 0;
        int end = start;
        while (words < SENTENCE_WORDS) {
            while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
                end--;
            }
            int begin = end;
            while (begin > 0 && !Character.isWhitespace(line.charAt(begin - 1))) {
                begin--;
            }
            if (!PersonsMessage.isSentenceWord(line, begin, end)) {
                return false;
            }
            words++;
            end = begin;
        }
        return true;
    }

    /**
     * Whether {@code " line <digit>"} or {@code " on line <digit>"} starts at {@code at} (after a quote closing the
     * file name, too).
     */
    private static boolean lineNumberAfter(String line, int at) {
        int from = at < line.length() && line.charAt(at) == '"' ? at + 1 : at;
        if (from < line.length() && line.charAt(from) == ',') {
            from++;
        }
        if (line.startsWith(" on", from)) {
            from += 3; // PHP: "in /app/index.php on line 14"
        }
        return line.startsWith(" line ", from) && from + 6 < line.length() && Character.isDigit(line.charAt(from + 6));
    }

    /** Whether a diff's {@code +++} line names a source or build file ({@code +++ b/src/App.java}, a date after it). */
    private static boolean isDiffOfCode(String line) {
        int start = line.startsWith("+++ b/") ? 6 : 4;
        int end = start;
        while (end < line.length() && !Character.isWhitespace(line.charAt(end))) {
            end++;
        }
        return end > start && isSourceOrBuildFile(FilePaths.fileName(line.substring(start, end)));
    }

    /** A path (or an {@code ls -l} entry, or a tree branch) naming a source or build file. */
    private static boolean isCodeFile(String stripped, String line) {
        String name = entryName(stripped, line);
        if (name == null) {
            return false;
        }
        return isSourceOrBuildFile(FilePaths.fileName(name));
    }

    private static boolean isSourceOrBuildFile(String file) {
        if (BUILD_FILES.contains(file)) {
            return true;
        }
        int dot = file.lastIndexOf('.');
        return dot > 0 && dot < file.length() - 1 && SOURCE.contains(file.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** A line that is one path, one {@code ls -l} entry or one tree branch (and nothing else). */
    private static boolean isPath(String stripped) {
        return entryName(stripped, stripped) != null;
    }

    /** The name a listing line gives, or null when the line is not a listing's. */
    private static String entryName(String stripped, String line) {
        String name = stripped;
        // the cheap tests first: this runs on every line of every tool result while the session waits
        if (line.length() > 10 && "-dl".indexOf(line.charAt(0)) >= 0 && LONG_LS.matcher(line).matches()) {
            int space = stripped.lastIndexOf(' ');
            name = stripped.substring(space + 1);
        } else if (stripped.startsWith("├") || stripped.startsWith("└") || stripped.startsWith("│")
                || stripped.startsWith("|") || stripped.startsWith("`")) {
            int branch = Math.max(stripped.lastIndexOf("── "), stripped.lastIndexOf("-- "));
            if (branch >= 0) {
                name = stripped.substring(branch + 3).strip();
            }
        }
        if (name.isEmpty() || name.length() > 300 || name.indexOf(' ') >= 0 || name.indexOf('\t') >= 0
                || name.indexOf(':') >= 0 && !(name.length() > 2 && name.charAt(1) == ':')) {
            return null;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Texts.isWordChar(c) || "./\\-@~+".indexOf(c) >= 0)) {
                return null;
            }
        }
        return name;
    }
}
