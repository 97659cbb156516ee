package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * File paths: how they are shown in items, and which tokens of prose are paths. Thread-safe (stateless).
 */
final class FilePaths {

    /** Extensions of files a developer talks about; a bare name needs one of them to count as a file. */
    private static final Set<String> SOURCE_EXTENSIONS = Set.of(
            "java", "kt", "kts", "scala", "groovy", "gradle", "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx",
            "mts", "cts", "vue", "svelte", "go", "rs", "rb", "php", "cs", "fs", "c", "h", "cc", "cpp", "hpp", "m",
            "swift", "dart", "ex", "exs", "erl", "clj", "lua", "pl", "sh", "bash", "zsh", "ps1", "sql", "graphql",
            "proto", "json", "yml", "yaml", "toml", "xml", "properties", "ini", "cfg", "conf", "env", "md", "rst",
            "txt", "html", "css", "scss", "less", "lock", "tf", "hcl", "csv", "ipynb");
    private static final Set<String> BARE_FILES = Set.of("Dockerfile", "Makefile", "Jenkinsfile", "Procfile", "Gemfile");
    /** A path-like token: segments of word characters, dots and dashes, separated by slashes. Bounded, no nesting. */
    private static final Pattern TOKEN = Pattern.compile("[\\w.@~-]{1,200}(?:[/\\\\][\\w.@~-]{1,200}){0,40}");
    /** Longer items are no path. */
    private static final int MAX_PATH_CHARS = 2_000;
    private static final Pattern URL = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]{0,20}://\\S{1,2000}");

    private FilePaths() {
    }

    /**
     * A path as items show it: a {@code file://} or {@code ./} prefix dropped, an absolute path cut to start at its
     * {@code src} directory when it has one (the part that means something in the project).
     */
    static String display(String path) {
        String p = path.startsWith("file://") ? path.substring("file://".length()) : path;
        if (p.startsWith("./") && p.length() > 2) {
            p = p.substring(2); // the same file as without it
        }
        boolean absolute = p.startsWith("/") || p.startsWith("\\") || (p.length() > 2 && p.charAt(1) == ':');
        if (absolute) {
            for (String marker : new String[]{"/src/", "\\src\\"}) {
                int at = p.indexOf(marker);
                if (at >= 0) {
                    return p.substring(at + 1);
                }
            }
        }
        return p;
    }

    /**
     * The segments of {@code item} when the whole item is one file's path ({@code scripts/report.py},
     * {@code /home/dev/app/scripts/report.py}, {@code report.py}), as {@link #display} shows it, split at either
     * separator, without empty, {@code .} and {@code ..} segments; {@code null} for any other text.
     */
    static List<String> segments(String item) {
        if (item.isEmpty() || item.length() > MAX_PATH_CHARS || !isFile(item)) {
            return null;
        }
        for (int i = 0; i < item.length(); i++) {
            if (Character.isWhitespace(item.charAt(i))) {
                return null;
            }
        }
        List<String> segments = new ArrayList<>();
        for (String segment : display(item).split("[/\\\\]")) {
            if (!segment.isEmpty() && !segment.equals(".") && !segment.equals("..")) {
                segments.add(segment);
            }
        }
        return segments.isEmpty() ? null : List.copyOf(segments);
    }

    /**
     * Whether two paths ({@link #segments}) may name one file: the shorter is the end of the longer, segment by
     * segment ({@code report.py}, {@code scripts/report.py} and {@code /home/dev/app/scripts/report.py}), compared
     * case-sensitively. {@code scripts/report.py} and {@code tests/report.py} are two files.
     */
    static boolean sameFile(List<String> a, List<String> b) {
        List<String> shorter = a.size() <= b.size() ? a : b;
        List<String> longer = shorter == a ? b : a;
        return shorter.equals(longer.subList(longer.size() - shorter.size(), longer.size()));
    }

    /** The last segment of a path. */
    static String fileName(String path) {
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /** Whether {@code token} names a file: a source extension, or a well-known bare name. */
    static boolean isFile(String token) {
        String name = fileName(token);
        if (BARE_FILES.contains(name)) {
            return true;
        }
        int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1) {
            return false;
        }
        return SOURCE_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /**
     * The files named in prose (a user's or the model's message), in order, without duplicates: tokens with a
     * source extension ({@code App.java}, {@code src/main/App.java}, {@code package.json}), not inside URLs.
     */
    static List<String> inProse(String text) {
        if (!mayNameFile(text)) {
            return List.of();
        }
        List<int[]> urls = new ArrayList<>();
        Matcher url = text.contains("://") ? URL.matcher(text) : null;
        while (url != null && url.find()) {
            urls.add(new int[]{url.start(), url.end()});
        }
        Set<String> found = new LinkedHashSet<>();
        Matcher token = TOKEN.matcher(text);
        while (token.find()) {
            if (insideAny(urls, token.start())) {
                continue;
            }
            String candidate = trimPunctuation(token.group());
            int before = token.start() - 1;
            // e-mail addresses and the tail of a longer word are not paths
            if (before >= 0 && (text.charAt(before) == '@' || Texts.isWordChar(text.charAt(before)))) {
                continue;
            }
            if (candidate.contains("@") || candidate.startsWith(".") && candidate.indexOf('/') < 0) {
                continue;
            }
            if (isFile(candidate)) {
                // an absolute path keeps its leading slash: it names the same file as in a stack trace
                boolean absolute = before >= 0 && (text.charAt(before) == '/' || text.charAt(before) == '\\')
                        && (before == 0 || !Texts.isWordChar(text.charAt(before - 1)));
                found.add(absolute ? text.charAt(before) + candidate : candidate);
            }
        }
        return List.copyOf(found);
    }

    /**
     * Whether {@code text} may name a file: it has a dot between a word character and a letter or digit (an
     * extension), or one of the {@link #BARE_FILES}. Most sentences have neither and skip the token scan.
     */
    private static boolean mayNameFile(String text) {
        for (int i = text.indexOf('.', 1); i > 0 && i + 1 < text.length(); i = text.indexOf('.', i + 1)) {
            if (Texts.isWordChar(text.charAt(i - 1)) && Character.isLetterOrDigit(text.charAt(i + 1))) {
                return true;
            }
        }
        for (String name : BARE_FILES) {
            if (text.contains(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean insideAny(List<int[]> spans, int position) {
        for (int[] span : spans) {
            if (position >= span[0] && position < span[1]) {
                return true;
            }
        }
        return false;
    }

    private static String trimPunctuation(String token) {
        int end = token.length();
        while (end > 0 && ".-~".indexOf(token.charAt(end - 1)) >= 0) {
            end--;
        }
        return token.substring(0, end);
    }
}
