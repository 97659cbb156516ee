package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stack traces of Java (and other JVM languages), Python and JavaScript: one item per trace, its root cause's
 * exception and message with the first frame of project code ({@code NullPointerException: ... at
 * DataConfig.dataSource(DataConfig.java:27)}). Which frames are library code is configured by package prefix (JVM)
 * and recognised by path (Python {@code site-packages}, Node {@code node_modules}). Thread-safe (stateless).
 */
final class StackTraces {

    private static final Pattern JAVA_EXCEPTION = Pattern.compile(
            "^(?:Exception in thread \"[^\"]{0,200}\" |Caused by: )?((?:[a-zA-Z_$][\\w$]*\\.){0,30}[A-Z][\\w$]*)(?:: ?(.*))?$");
    private static final Pattern JAVA_FRAME = Pattern.compile("^\\s+at (?:[\\w.$-]+/)*([\\w$.<>-]+)\\(([^()]*)\\)\\s*$");
    private static final Pattern JAVA_MORE = Pattern.compile("^\\s+\\.\\.\\. \\d+ (?:more|common frames omitted)\\s*$");
    private static final Pattern PY_FRAME = Pattern.compile("^\\s+File \"([^\"]+)\", line (\\d+)(?:, in (\\S+))?");
    private static final Pattern PY_EXCEPTION = Pattern.compile("^([A-Za-z_][\\w.]*)(?:: ?(.*))?$");
    private static final Pattern JS_EXCEPTION = Pattern.compile("^(?:Uncaught )?([A-Z]\\w*(?:Error|Exception)): (.+)$");
    private static final Pattern JS_FRAME = Pattern.compile("^\\s+at (?:(.{1,200}) \\()?((?:file://)?[^()\\s]+):(\\d+):\\d+\\)?\\s*$");

    private StackTraces() {
    }

    /**
     * @param libraryPackages prefixes of JVM class names that are not project code
     */
    static void find(List<String> lines, Found found, List<String> libraryPackages) {
        List<PythonTrace> python = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > BuildErrors.MAX_LINE) {
                continue;
            }
            if (line.startsWith("Traceback (most recent call last):")) {
                i = python(lines, i + 1, python);
            } else if (line.startsWith("During handling of the above exception")
                    || line.startsWith("The above exception was the direct cause")) {
                // a chained Python exception: the one printed first is the root cause, the next trace adds nothing
                i = skipTraceback(lines, i + 1);
            } else if (isFrameNext(lines, i, JAVA_FRAME) && JAVA_EXCEPTION.matcher(line).matches() && looksThrown(line)) {
                i = java(lines, i, found, libraryPackages);
            } else if (isFrameNext(lines, i, JS_FRAME)) {
                Matcher m = JS_EXCEPTION.matcher(line);
                if (m.matches()) {
                    i = javaScript(lines, i + 1, m, found);
                }
            }
        }
        for (PythonTrace trace : python) {
            found.add(Found.ERROR, trace.item());
            found.path(trace.projectPath());
        }
    }

    /** Whether the line names an exception type rather than being any capitalised word. */
    private static boolean looksThrown(String line) {
        Matcher m = JAVA_EXCEPTION.matcher(line);
        if (!m.matches()) {
            return false;
        }
        String type = simpleName(m.group(1));
        return type.endsWith("Exception") || type.endsWith("Error") || type.endsWith("Throwable")
                || type.endsWith("Failure") || m.group(1).contains(".");
    }

    private static boolean isFrameNext(List<String> lines, int i, Pattern frame) {
        if (i + 1 >= lines.size()) {
            return false;
        }
        String next = lines.get(i + 1);
        return next.length() <= BuildErrors.MAX_LINE && !next.isEmpty() && Character.isWhitespace(next.charAt(0))
                && next.stripLeading().startsWith("at ") && frame.matcher(next).matches();
    }

    /** Reads one JVM trace with its causes; returns the index of its last line. */
    private static int java(List<String> lines, int start, Found found, List<String> libraryPackages) {
        String rootHeader = lines.get(start);
        String rootFrame = null;
        String firstProjectFrame = null;
        boolean inRoot = true;
        int i = start + 1;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > BuildErrors.MAX_LINE) {
                break;
            }
            Matcher frame = JAVA_FRAME.matcher(line);
            if (frame.matches()) {
                if (isProjectFrame(frame.group(1), frame.group(2), libraryPackages)) {
                    String shown = shortFrame(frame.group(1), frame.group(2));
                    if (firstProjectFrame == null) {
                        firstProjectFrame = shown;
                    }
                    if (inRoot && rootFrame == null) {
                        rootFrame = shown;
                    }
                }
            } else if (line.startsWith("Caused by: ")) {
                rootHeader = line;
                rootFrame = null;
                inRoot = true;
            } else if (line.stripLeading().startsWith("Suppressed: ")) {
                inRoot = false;
            } else if (!JAVA_MORE.matcher(line).matches()) {
                break;
            }
        }
        Matcher m = JAVA_EXCEPTION.matcher(rootHeader);
        if (m.matches()) {
            String frame = rootFrame != null ? rootFrame : firstProjectFrame;
            found.add(Found.ERROR, exception(simpleName(m.group(1)), m.group(2)) + (frame == null ? "" : " at " + frame));
        }
        return i - 1;
    }

    private static boolean isProjectFrame(String method, String location, List<String> libraryPackages) {
        if (!location.contains(":")) {
            return false; // Native Method, Unknown Source: not where the project's code failed
        }
        for (String prefix : libraryPackages) {
            if (method.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }

    /** {@code com.acme.Ring.get} at {@code Ring.java:44} as {@code Ring.get(Ring.java:44)}. */
    private static String shortFrame(String method, String location) {
        int lastDot = method.lastIndexOf('.');
        int classDot = lastDot <= 0 ? -1 : method.lastIndexOf('.', lastDot - 1);
        return method.substring(classDot + 1) + "(" + location + ")";
    }

    /** Reads one Python traceback's frames and exception line; returns the index of its last line. */
    private static int python(List<String> lines, int from, List<PythonTrace> traces) {
        String projectFrame = null;
        String projectPath = null;
        int i = from;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.length() > BuildErrors.MAX_LINE) {
                return i;
            }
            if (line.isEmpty() || Character.isWhitespace(line.charAt(0))) {
                Matcher frame = PY_FRAME.matcher(line);
                if (frame.lookingAt() && isProjectPath(frame.group(1))) {
                    projectPath = frame.group(1);
                    projectFrame = FilePaths.fileName(projectPath) + ":" + frame.group(2)
                            + (frame.group(3) == null ? "" : " in " + frame.group(3));
                }
                continue;
            }
            Matcher exception = PY_EXCEPTION.matcher(line);
            if (exception.matches()) {
                traces.add(new PythonTrace(exception(simpleName(exception.group(1)), exception.group(2))
                        + (projectFrame == null ? "" : " at " + projectFrame), projectPath));
            }
            return i;
        }
        return i;
    }

    /** Skips the traceback that follows a chaining line; returns the index of its exception line. */
    private static int skipTraceback(List<String> lines, int from) {
        int i = from;
        while (i < lines.size() && !lines.get(i).startsWith("Traceback (most recent call last):")) {
            if (!lines.get(i).isBlank()) {
                return i - 1;
            }
            i++;
        }
        return i < lines.size() ? python(lines, i + 1, new ArrayList<>()) : i;
    }

    static boolean isProjectPath(String path) {
        String p = path.replace('\\', '/');
        return !(p.startsWith("<") || p.contains("/site-packages/") || p.contains("/dist-packages/")
                || p.contains("/lib/python") || p.startsWith("/usr/lib/") || p.contains("/node_modules/"));
    }

    /** Reads one JavaScript stack; returns the index of its last line. */
    private static int javaScript(List<String> lines, int from, Matcher exception, Found found) {
        String projectFrame = null;
        String projectPath = null;
        int i = from;
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher frame = line.length() <= BuildErrors.MAX_LINE ? JS_FRAME.matcher(line) : null;
            if (frame == null || !frame.matches()) {
                break;
            }
            String path = frame.group(2).startsWith("file://") ? frame.group(2).substring(7) : frame.group(2);
            if (projectFrame == null && !path.startsWith("node:") && isProjectPath(path)) {
                projectPath = path;
                projectFrame = FilePaths.fileName(path) + ":" + frame.group(3);
            }
        }
        found.add(Found.ERROR, exception(exception.group(1), exception.group(2))
                + (projectFrame == null ? "" : " at " + projectFrame));
        found.path(projectPath);
        return i - 1;
    }

    private static String exception(String type, String message) {
        return message == null || message.isBlank() ? type : type + ": " + message.strip();
    }

    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }

    /** A Python traceback's item and the file of its innermost project frame ({@code null}: none). */
    private record PythonTrace(String item, String projectPath) {
    }
}
