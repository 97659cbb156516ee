package dev.workingmemory.context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * File listings and directory trees collapsed to a summary: {@code find}, glob and {@code git ls-files} output (one
 * path per line) and {@code ls -R} as one line per directory with its entry count and first names; {@code ls -l} as
 * its names; {@code tree} down to the depth that fits, deeper entries counted. A listing says what exists, and the
 * model can list again what it needs in detail. Thread-safe (stateless).
 */
final class Listings {

    private static final Pattern LONG_ENTRY = Pattern.compile("^[-dlcbps][rwxsStT-]{9}[.@+]?\\s+\\d+\\s.*");
    private static final int MAX_PATH = 300;
    private static final int SAMPLE = 200;

    private Listings() {
    }

    /** The collapsed listing, or {@code null} when the lines are not one. */
    static List<String> collapse(LineIndex lines, int budget, int namesShown) {
        if (!mayBeListing(lines)) {
            return null;
        }
        List<String> all = new ArrayList<>();
        int nonBlank = 0;
        int tree = 0;
        int paths = 0;
        int longEntries = 0;
        for (int i = 0; i < lines.count(); i++) {
            if (lines.length(i) > MAX_PATH) {
                return null; // listings have short lines; a long one means something else
            }
            String line = lines.line(i);
            all.add(line);
            if (line.isBlank()) {
                continue;
            }
            nonBlank++;
            if (treeDepth(line) >= 0) {
                tree++;
            }
            if (isPath(line)) {
                paths++;
            }
            if (isLongEntry(line)) {
                longEntries++;
            }
        }
        if (nonBlank == 0) {
            return null;
        }
        if (tree * 10 >= nonBlank * 6) {
            return tree(all, budget);
        }
        if (isRecursiveLs(all)) {
            return directories(recursiveLs(all), namesShown);
        }
        if (longEntries * 10 >= nonBlank * 8) {
            return directories(longLs(all), namesShown);
        }
        if (paths * 10 >= nonBlank * 9) {
            return directories(pathList(all), namesShown);
        }
        return null;
    }

    /** A quick look at the first lines, so that a large output that is no listing is not copied line by line. */
    private static boolean mayBeListing(LineIndex lines) {
        int looked = 0;
        int listingLike = 0;
        for (int i = 0; i < lines.count() && looked < SAMPLE; i++) {
            if (lines.length(i) > MAX_PATH) {
                return false;
            }
            String line = lines.line(i);
            if (!line.isBlank()) {
                if (looked == 0 && line.endsWith(":") && line.indexOf(' ') < 0) {
                    return true; // ls -R starts with its first directory's heading
                }
                looked++;
                if (treeDepth(line) >= 0 || isPath(line) || isLongEntry(line)
                        || line.endsWith(":") && line.indexOf(' ') < 0) {
                    listingLike++;
                }
            }
        }
        return looked > 0 && listingLike * 2 >= looked;
    }

    /** An {@code ls -l} entry; the first character is tested before the pattern runs, since most lines fail on it. */
    private static boolean isLongEntry(String line) {
        return line.length() > 10 && "-dlcbps".indexOf(line.charAt(0)) >= 0 && LONG_ENTRY.matcher(line).matches();
    }

    /** One path per line: no spaces, no colons (grep output, URLs), a slash or a dot in it. */
    private static boolean isPath(String line) {
        String p = line.strip();
        return !p.isEmpty() && p.indexOf(' ') < 0 && p.indexOf('\t') < 0 && p.indexOf(':') < 0
                && (p.indexOf('/') >= 0 || p.indexOf('.') > 0 || p.indexOf('\\') >= 0);
    }

    private static Map<String, List<String>> pathList(List<String> lines) {
        Map<String, List<String>> byDirectory = new LinkedHashMap<>();
        for (String line : lines) {
            String p = line.strip().replace('\\', '/');
            if (p.isEmpty()) {
                continue;
            }
            if (p.startsWith("./")) {
                p = p.substring(2);
            }
            int slash = p.endsWith("/") ? p.lastIndexOf('/', p.length() - 2) : p.lastIndexOf('/');
            String directory = slash < 0 ? "." : p.substring(0, slash);
            byDirectory.computeIfAbsent(directory, d -> new ArrayList<>()).add(p.substring(slash + 1));
        }
        return byDirectory;
    }

    /** {@code ls -R}: blocks headed by {@code dir:}, entries separated by spaces, a blank line between blocks. */
    private static boolean isRecursiveLs(List<String> lines) {
        int headers = 0;
        String first = null;
        for (String line : lines) {
            if (first == null && !line.isBlank()) {
                first = line;
            }
            if (line.endsWith(":") && line.indexOf(' ') < 0) {
                headers++;
            }
        }
        return first != null && first.endsWith(":") && first.indexOf(' ') < 0 && headers >= 2;
    }

    private static Map<String, List<String>> recursiveLs(List<String> lines) {
        Map<String, List<String>> byDirectory = new LinkedHashMap<>();
        String directory = ".";
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            if (line.endsWith(":") && line.indexOf(' ') < 0) {
                directory = line.substring(0, line.length() - 1);
                directory = directory.startsWith("./") ? directory.substring(2) : directory;
                byDirectory.computeIfAbsent(directory, d -> new ArrayList<>());
            } else {
                for (String name : line.strip().split("\\s+")) {
                    byDirectory.computeIfAbsent(directory, d -> new ArrayList<>()).add(name);
                }
            }
        }
        return byDirectory;
    }

    private static Map<String, List<String>> longLs(List<String> lines) {
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            if (isLongEntry(line)) {
                String[] fields = line.strip().split("\\s+");
                int arrow = List.of(fields).indexOf("->");
                String name = arrow > 0 ? fields[arrow - 1] : fields[fields.length - 1];
                if (!name.equals(".") && !name.equals("..")) {
                    names.add(line.charAt(0) == 'd' ? name + "/" : name);
                }
            }
        }
        Map<String, List<String>> one = new LinkedHashMap<>();
        one.put(".", names);
        return one;
    }

    /** One line per directory: {@code dir/ (12): a, b, c, ... +9 more}, after a heading with the totals. */
    private static List<String> directories(Map<String, List<String>> byDirectory, int namesShown) {
        int entries = byDirectory.values().stream().mapToInt(List::size).sum();
        List<String> out = new ArrayList<>(byDirectory.size() + 1);
        out.add("[listing collapsed: " + entries + " entries in " + byDirectory.size()
                + (byDirectory.size() == 1 ? " directory]" : " directories]"));
        byDirectory.forEach((directory, names) -> {
            StringBuilder line = new StringBuilder(directory.equals(".") ? "./" : directory + "/")
                    .append(" (").append(names.size()).append(")");
            for (int i = 0; i < Math.min(namesShown, names.size()); i++) {
                line.append(i == 0 ? ": " : ", ").append(names.get(i));
            }
            if (names.size() > namesShown) {
                line.append(", +").append(names.size() - namesShown).append(" more");
            }
            out.add(line.toString());
        });
        return out;
    }

    /** The depth of a {@code tree} entry (0 for the root's children), or -1 when the line is no tree entry. */
    static int treeDepth(String line) {
        int connector = line.indexOf("\u2500\u2500 ");
        if (connector < 0) {
            connector = line.indexOf("-- ");
            if (connector < 1 || "|`+\\".indexOf(line.charAt(connector - 1)) < 0) {
                return -1;
            }
        }
        return Math.max(0, connector - 1) / 4;
    }

    /** The tree down to the deepest level whose lines fit in {@code budget}; an entry with hidden ones says how many. */
    private static List<String> tree(List<String> lines, int budget) {
        int[] depth = new int[lines.size()];
        int deepest = 0;
        for (int i = 0; i < lines.size(); i++) {
            depth[i] = treeDepth(lines.get(i));
            deepest = Math.max(deepest, depth[i]);
        }
        int shownDepth = -1;
        for (int d = 0; d <= deepest; d++) {
            int count = 0;
            for (int value : depth) {
                if (value <= d) {
                    count++; // lines that are no entries (root, summary) count at every depth
                }
            }
            if (count + 1 > budget) {
                break;
            }
            shownDepth = d;
        }
        if (shownDepth < 0) {
            shownDepth = 0; // even the first level is too long: the caller cuts it further
        }
        List<String> out = new ArrayList<>();
        int hidden = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (depth[i] <= shownDepth) {
                int below = 0;
                if (depth[i] == shownDepth && depth[i] >= 0) {
                    for (int j = i + 1; j < lines.size() && depth[j] > depth[i]; j++) {
                        below++;
                    }
                }
                out.add(below > 0 ? lines.get(i) + " (+" + below + " entries)" : lines.get(i));
            } else {
                hidden++;
            }
        }
        out.add(0, "[tree collapsed: " + hidden + " deeper entries counted, not listed]");
        return out;
    }
}
