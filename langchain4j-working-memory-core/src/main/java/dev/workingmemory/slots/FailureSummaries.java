package dev.workingmemory.slots;

import dev.workingmemory.internal.ErrorLines;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a failed command says about itself when no compiler error, failing test or stack trace says more: the
 * summary of a build tool (Maven's "Failed to execute goal", Gradle's "What went wrong", npm's first {@code ERR!},
 * yarn's first {@code error}, pnpm's {@code ERR_PNPM_…}, a resolver's "version solving failed", pip's "No matching
 * distribution"), a non-zero exit code with the output line before it, an {@code ERROR} line of
 * an application log, a line starting with {@code error:} or {@code fatal:}. Tried in that order; the first kind
 * found is used. Thread-safe (stateless).
 */
final class FailureSummaries {

    private static final Pattern MAVEN_GOAL = Pattern.compile(
            "^\\[ERROR] Failed to execute goal (?:(\\S+) )?(?:\\([^)]{0,100}\\) )?on project ([\\w.-]+): (.+?)(?: -> \\[Help \\d+])?\\s*$");
    private static final Pattern MAVEN_DEPENDENCIES = Pattern.compile("^Could not resolve dependencies for project \\S+?: ");
    private static final Pattern GRADLE_CAUSE = Pattern.compile("^\\s*> (.+)$");
    private static final Pattern NPM = Pattern.compile("^npm (?:ERR!|error) ?(.*)$");
    private static final Pattern NPM_NOISE = Pattern.compile(
            "^(?:|code \\S+|errno \\S+|syscall \\S+|path .*|404\\s*|A complete log.*|Log files.*|\\s.*|While resolving.*)$");
    /** Yarn 1 prints its errors as {@code error <message>}; pnpm as {@code ERR_PNPM_<CODE>  <message>}. */
    private static final Pattern YARN = Pattern.compile("^error ([A-Z][^:].*)$");
    private static final Pattern PNPM = Pattern.compile("^\\s*(ERR_PNPM_\\w+)\\s+(\\S.*)$");
    /** Poetry's and pip's resolvers: "…, version solving failed." */
    private static final Pattern SOLVER = Pattern.compile("^(?:Because |And because )?(.{1,400}version solving failed\\.?)$");
    private static final Pattern PIP = Pattern.compile("^ERROR: (No matching distribution found for \\S+)");
    /** A log line at a routine level: no cause of a failure. */
    private static final Pattern ROUTINE_LOG = Pattern.compile("\\b(?:INFO|DEBUG|TRACE)\\b");
    private static final Pattern EXIT = Pattern.compile(
            "(?:exit(?:ed)?(?: with)?(?: exit)? (?:code|status)|returned non-zero exit status|exit code)[:=]? ?(-?\\d{1,5})\\b");
    private static final Pattern PROMPT = Pattern.compile("^\\$ (.+)$");
    private static final Pattern LOG_ERROR = Pattern.compile(
            "^\\[?\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}[.,\\d]{0,10}(?:Z|[+-]\\d{2}:?\\d{2})?]?\\s+(?:\\[[^\\]]{0,60}]\\s+)?(?:ERROR|FATAL|SEVERE|CRITICAL)\\b(.*)$");
    private static final Pattern PYTHON_LOG_ERROR = Pattern.compile("^(?:ERROR|CRITICAL):([\\w.]+):(.+)$");
    private static final Pattern GENERIC = Pattern.compile(
            "^(?i:error|fatal)(?: from server)?(?: \\([\\w -]{1,40}\\))?(?:\\[[\\w-]{1,20}])?: (.+)$");
    private static final Pattern HTTP_STATUS = Pattern.compile("^HTTP/\\d(?:\\.\\d)? ([45]\\d\\d)(?: (.*))?$");
    /** Box-drawing frames some tools (Terraform) put around their messages. */
    private static final Pattern FRAME = Pattern.compile("^[\\u2502\\u2503|] ?");
    /**
     * Docker's {@code Dockerfile:9}, Terraform's {@code on main.tf line 14}. A Docker file's name is read on from its
     * last "Dockerfile" (the same names match): from each of many, the rest of a long word would be read again.
     */
    static final Pattern LOCATION = Pattern.compile(
            "^(\\S*Dockerfile(?:(?!Dockerfile)[\\w.-])*+):\\d+$|^\\s*on (\\S+\\.\\w{1,10}) line \\d+(?:, in .*)?$");
    private static final Pattern COMMAND_NOT_FOUND = Pattern.compile("^(?:\\S+: )?(?:line \\d+: )?(\\S+): command not found$");

    private FailureSummaries() {
    }

    static void find(List<String> lines, Found found) {
        if (!found.has(Found.ERROR)) {
            buildTools(lines, found);
        }
        if (!found.has(Found.ERROR)) {
            exitCode(lines, found);
        }
        if (!found.has(Found.ERROR)) {
            logErrors(lines, found);
        }
        if (!found.has(Found.ERROR)) {
            genericErrors(lines, found);
        }
        if (found.has(Found.ERROR)) {
            locations(lines, found);
        }
    }

    /**
     * The file a failure points at, for the pool: Docker's {@code Dockerfile:9} above the quoted instruction,
     * Terraform's {@code on main.tf line 14}.
     */
    private static void locations(List<String> lines, Found found) {
        for (String raw : lines) {
            if (raw.length() > BuildErrors.MAX_LINE || !(raw.contains("Dockerfile") || raw.contains(" line "))) {
                continue;
            }
            Matcher m = LOCATION.matcher(FRAME.matcher(raw).replaceFirst(""));
            if (m.matches()) {
                found.path(m.group(1) != null ? m.group(1) : m.group(2));
            }
        }
    }

    private static void buildTools(List<String> lines, Found found) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > BuildErrors.MAX_LINE) {
                continue;
            }
            Matcher m;
            if (line.startsWith("[ERROR] Failed to execute goal") && (m = MAVEN_GOAL.matcher(line)).matches()) {
                String message = MAVEN_DEPENDENCIES.matcher(m.group(3)).replaceFirst("");
                String goal = m.group(1) == null ? "" : goalName(m.group(1)) + " ";
                found.add(Found.ERROR, goal + "failed on project " + m.group(2) + ": " + message);
            } else if (line.equals("* What went wrong:") && i + 1 < lines.size()) {
                found.add(Found.ERROR, gradleFailure(lines, i + 1));
            } else if (line.startsWith("npm ") && (m = NPM.matcher(line)).matches()) {
                if (!found.has(Found.ERROR) && !NPM_NOISE.matcher(m.group(1)).matches()) {
                    found.add(Found.ERROR, "npm: " + m.group(1).strip());
                }
            } else if (line.startsWith("error ") && (m = YARN.matcher(line)).matches()) {
                if (!found.has(Found.ERROR)) {
                    found.add(Found.ERROR, "yarn: " + m.group(1).strip());
                }
            } else if (line.contains("ERR_PNPM_") && (m = PNPM.matcher(line)).matches()) {
                found.add(Found.ERROR, m.group(1) + ": " + m.group(2).strip());
            } else if (line.endsWith("version solving failed.") && (m = SOLVER.matcher(line)).matches()) {
                found.add(Found.ERROR, m.group(1));
            } else if (line.startsWith("ERROR: ") && (m = PIP.matcher(line)).lookingAt()) {
                found.add(Found.ERROR, m.group(1));
            } else if (i == 0 && (m = HTTP_STATUS.matcher(line)).matches()) {
                found.add(Found.ERROR, "HTTP " + m.group(1) + (m.group(2) == null ? "" : " " + m.group(2).strip()));
            } else if (line.equals("APPLICATION FAILED TO START")) {
                found.add(Found.ERROR, springDescription(lines, i + 1));
            }
        }
    }

    /** Spring Boot's failure analysis: the text under "Description:". */
    private static String springDescription(List<String> lines, int from) {
        for (int i = from; i + 1 < lines.size() && i < from + 10; i++) {
            if (lines.get(i).strip().equals("Description:")) {
                for (int j = i + 1; j < lines.size() && j < i + 5; j++) {
                    if (!lines.get(j).isBlank()) {
                        return "Application failed to start: " + lines.get(j).strip();
                    }
                }
            }
        }
        return "Application failed to start";
    }

    /** {@code org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test} as {@code maven-surefire-plugin:test}. */
    private static String goalName(String goal) {
        String[] parts = goal.split(":");
        return parts.length >= 4 ? parts[1] + ":" + parts[parts.length - 1] : goal;
    }

    /** Gradle's first line under "What went wrong" and the innermost {@code >} cause under it. */
    private static String gradleFailure(List<String> lines, int from) {
        String first = lines.get(from).strip();
        String cause = null;
        for (int i = from + 1; i < lines.size() && !lines.get(i).isBlank(); i++) {
            String line = lines.get(i);
            Matcher m = line.length() <= BuildErrors.MAX_LINE ? GRADLE_CAUSE.matcher(line) : null;
            if (m != null && m.matches()) {
                cause = m.group(1).strip();
            }
        }
        if (cause == null) {
            return first;
        }
        return (first.endsWith(".") ? first.substring(0, first.length() - 1) : first) + ": " + cause;
    }

    /** The first non-zero exit code, with the command (a {@code $ } line before it) and the output line before it. */
    private static void exitCode(List<String> lines, Found found) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > BuildErrors.MAX_LINE || !line.toLowerCase(Locale.ROOT).contains("exit")) {
                continue;
            }
            Matcher m = EXIT.matcher(line.toLowerCase(Locale.ROOT));
            if (!m.find() || Integer.parseInt(m.group(1)) == 0) {
                continue;
            }
            String command = null;
            // a line that says more than the exit code (docker: "ERROR: failed to solve: ... exit code: 1") is the item
            boolean alone = saysMore(line);
            String error = null; // the nearest error line before it, else the nearest line that is no routine log line
            String plain = null;
            for (int j = i - 1; j >= 0 && command == null; j--) {
                String previous = lines.get(j);
                if (!hasWords(previous) || previous.length() > BuildErrors.MAX_LINE) {
                    continue;
                }
                Matcher prompt = PROMPT.matcher(previous);
                if (prompt.matches()) {
                    command = prompt.group(1).strip();
                } else if (error == null && ErrorLines.starts(previous, 0, previous.length(), 1).length > 0) {
                    error = previous.strip();
                } else if (plain == null && !ROUTINE_LOG.matcher(previous).find()) {
                    plain = previous.strip();
                }
            }
            String before = alone ? null : error != null ? error : plain != null ? plain : "";
            if (before == null) {
                found.add(Found.ERROR, line.strip());
                return;
            }
            String what = command == null ? "Exit code " + m.group(1) : command + " exited with code " + m.group(1);
            found.add(Found.ERROR, before.isEmpty() ? what : what + ": " + before);
            return;
        }
    }

    /** Whether an exit-code line also says what failed: an error or failure word before the exit phrase. */
    private static boolean saysMore(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        int exit = lower.indexOf("exit");
        String head = exit < 0 ? lower : lower.substring(0, exit);
        return head.contains("error") && head.length() > 30;
    }

    /** Whether a line holds at least one word (not only a separator such as {@code -----}). */
    private static boolean hasWords(String line) {
        int letters = 0;
        for (int i = 0; i < line.length() && letters < 2; i++) {
            if (Character.isLetter(line.charAt(i))) {
                letters++;
            }
        }
        return letters >= 2;
    }

    private static void logErrors(List<String> lines, Found found) {
        for (String line : lines) {
            if (line.length() > BuildErrors.MAX_LINE || line.isEmpty()) {
                continue;
            }
            Matcher m;
            if (Character.isDigit(line.charAt(0)) || line.charAt(0) == '[') {
                if ((m = LOG_ERROR.matcher(line)).matches()) {
                    found.add(Found.ERROR, logMessage(m.group(1)));
                }
            } else if ((m = PYTHON_LOG_ERROR.matcher(line)).matches()) {
                found.add(Found.ERROR, m.group(1) + ": " + m.group(2).strip());
            }
        }
    }

    /**
     * The message of a log line after its level: {@code Logger: message} for the Spring Boot layout
     * ({@code pid --- [thread] logger : message}), else the rest without the thread.
     */
    private static String logMessage(String rest) {
        int separator = rest.indexOf(" : ");
        if (separator >= 0) {
            String head = rest.substring(0, separator).strip();
            String logger = head.substring(head.lastIndexOf(' ') + 1);
            logger = logger.substring(logger.lastIndexOf('.') + 1);
            return logger + ": " + rest.substring(separator + 3).strip();
        }
        String message = rest.strip();
        if (message.startsWith("[")) {
            int close = message.indexOf(']');
            message = close < 0 ? message : message.substring(close + 1).strip();
        }
        return message.startsWith("- ") ? message.substring(2) : message;
    }

    private static void genericErrors(List<String> lines, Found found) {
        for (String raw : lines) {
            if (raw.length() > BuildErrors.MAX_LINE) {
                continue;
            }
            String line = FRAME.matcher(raw).replaceFirst("");
            Matcher m = GENERIC.matcher(line);
            if (m.matches()) {
                found.add(Found.ERROR, line.strip());
            } else if (line.endsWith("command not found") && (m = COMMAND_NOT_FOUND.matcher(line)).matches()) {
                found.add(Found.ERROR, m.group(1) + ": command not found");
            }
        }
    }
}
