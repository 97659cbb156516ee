package dev.workingmemory.slots;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dependencies a build file declares (a Maven POM, a Gradle build script, {@code package.json},
 * {@code requirements.txt}, {@code pyproject.toml}, {@code go.mod}, {@code Cargo.toml}), one item per file listing
 * them. Import blocks of source files are {@link Imports}, dependencies a tool could not get
 * {@link UnresolvedDependencies}. Thread-safe (stateless).
 */
final class Dependencies {

    /**
     * A Gradle dependency: {@code implementation("g:a:v")}, {@code api 'g:a'}, {@code implementation(libs.x)}. The white
     * space around the parenthesis is taken whole (what follows is never white space): shared out between the two
     * runs, a long run would be read again for each way of sharing it.
     */
    static final Pattern GRADLE_DECLARATION = Pattern.compile(
            "^\\s*(?:implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly"
                    + "|annotationProcessor|kapt|ksp|compile|testCompile|runtime)\\s*+\\(?\\s*+(?:[\"']([\\w.-]+):([\\w.-]+)(?::([\\w.+-]+))?(?::[\\w.-]+)?[\"']"
                    + "|(libs\\.[\\w.]+))");
    private static final Pattern GO_REQUIRE = Pattern.compile("^(?:require )?\\s*([\\w.-]+\\.[a-z]{2,}/[\\w./-]+) (v[\\w.+-]+)(?: // indirect)?\\s*$");
    private static final Pattern CARGO_DEPENDENCY = Pattern.compile("^([A-Za-z][\\w-]*)\\s*=\\s*(?:\"([^\"]*)\"|\\{.*?version\\s*=\\s*\"([^\"]*)\".*}|\\{.*})\\s*$");
    private static final Pattern REQUIREMENT = Pattern.compile("^([A-Za-z][A-Za-z0-9._-]*)(?:\\[[^\\]]*])?\\s*([=<>!~][^;#]*)?(?:[;#].*)?$");
    private static final Pattern DEPENDENCY_ARRAY = Pattern.compile("^dependencies\\s*=\\s*\\[");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]{1,200})\"|'([^']{1,200})'");
    /** Items listing a build file's dependencies stay about this short; the rest is counted. */
    private static final int LIST_CHARS = 200;

    private Dependencies() {
    }

    /** The dependencies a build file declares, as one item; returns whether the text was such a file. */
    static boolean declared(String text, List<String> lines, JsonNode json, Found found) {
        List<String> names;
        String kind;
        if (json != null) {
            names = packageJson(json);
            kind = "npm";
        } else if (text.contains("[project]") || text.contains("[tool.poetry")) {
            names = pyproject(lines);
            kind = "python";
        } else if (text.contains("<project") && text.contains("<dependency>")) {
            names = pom(text);
            kind = "maven";
        } else if (text.contains("dependencies") && text.contains("{") && !text.contains("[dependencies]")) {
            names = gradle(lines);
            kind = "gradle";
        } else if (text.startsWith("module ") && text.contains("require")) {
            names = goModule(lines);
            kind = "go";
        } else if (text.contains("[dependencies]") || text.contains("[dev-dependencies]")) {
            names = cargo(lines);
            kind = "cargo";
        } else {
            names = requirements(lines);
            kind = "pip";
        }
        if (names.isEmpty()) {
            return false;
        }
        found.add(Found.DEPENDENCY, list(kind, names));
        return true;
    }

    /** {@code kind: a, b, c (+4 more)}, about {@link #LIST_CHARS} long at most. */
    static String list(String kind, List<String> names) {
        StringBuilder out = new StringBuilder(kind).append(": ");
        int shown = 0;
        for (String name : names) {
            if (shown > 0 && out.length() + name.length() + 2 > LIST_CHARS) {
                break;
            }
            out.append(shown == 0 ? "" : ", ").append(name);
            shown++;
        }
        if (shown < names.size()) {
            out.append(" (+").append(names.size() - shown).append(" more)");
        }
        return out.toString();
    }

    private static List<String> packageJson(JsonNode json) {
        List<String> names = new ArrayList<>();
        for (String field : List.of("dependencies", "devDependencies", "peerDependencies")) {
            JsonNode dependencies = json.path(field);
            if (dependencies.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = dependencies.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> dependency = it.next();
                    String version = dependency.getValue().asText("");
                    names.add(version.isEmpty() ? dependency.getKey() : dependency.getKey() + "@" + version);
                }
            }
        }
        return names;
    }

    /** The {@code artifactId[:version]} of each {@code <dependency>}; found with indexOf, linear in the text. */
    private static List<String> pom(String text) {
        List<String> names = new ArrayList<>();
        int from = 0;
        while (true) {
            int start = text.indexOf("<dependency>", from);
            if (start < 0) {
                return names;
            }
            int end = text.indexOf("</dependency>", start);
            if (end < 0) {
                return names;
            }
            String artifact = element(text, "artifactId", start, end);
            String version = element(text, "version", start, end);
            if (artifact != null) {
                names.add(version == null ? artifact : artifact + ":" + version);
            }
            from = end;
        }
    }

    private static String element(String text, String name, int from, int to) {
        String open = "<" + name + ">";
        int start = text.indexOf(open, from);
        if (start < 0 || start > to) {
            return null;
        }
        int end = text.indexOf("</" + name + ">", start);
        if (end < 0 || end > to) {
            return null;
        }
        String value = text.substring(start + open.length(), end).strip();
        return value.isEmpty() ? null : value;
    }

    private static List<String> gradle(List<String> lines) {
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            if (line.length() <= BuildErrors.MAX_LINE) {
                Matcher m = GRADLE_DECLARATION.matcher(line);
                if (m.lookingAt()) {
                    names.add(m.group(4) != null ? m.group(4) : m.group(3) == null ? m.group(2) : m.group(2) + ":" + m.group(3));
                }
            }
        }
        return names;
    }

    /** The modules a {@code go.mod} requires, direct ones first. */
    private static List<String> goModule(List<String> lines) {
        List<String> direct = new ArrayList<>();
        List<String> indirect = new ArrayList<>();
        for (String line : lines) {
            Matcher m = line.length() <= 300 ? GO_REQUIRE.matcher(line) : null;
            if (m != null && m.matches()) {
                (line.contains("// indirect") ? indirect : direct).add(m.group(1) + " " + m.group(2));
            }
        }
        direct.addAll(indirect);
        return direct;
    }

    /** The crates of a {@code Cargo.toml}'s dependency tables. */
    private static List<String> cargo(List<String> lines) {
        List<String> names = new ArrayList<>();
        boolean inDependencies = false;
        for (String line : lines) {
            String t = line.strip();
            if (t.startsWith("[")) {
                inDependencies = t.endsWith("dependencies]");
                continue;
            }
            Matcher m = inDependencies && t.length() <= 300 ? CARGO_DEPENDENCY.matcher(t) : null;
            if (m != null && m.matches()) {
                String version = m.group(2) != null ? m.group(2) : m.group(3);
                names.add(version == null ? m.group(1) : m.group(1) + " " + version);
            }
        }
        return names;
    }

    /** A {@link #REQUIREMENT} match as {@code name>=version}, spaces dropped. */
    private static String requirement(Matcher m) {
        return m.group(2) == null ? m.group(1) : m.group(1) + m.group(2).replace(" ", "").strip();
    }

    /**
     * The requirements of a {@code pyproject.toml}: the {@code dependencies = [...]} array of {@code [project]}
     * (PEP 621) and the tables of Poetry ({@code [tool.poetry.dependencies]}, {@code [tool.poetry.group.*.dependencies]}),
     * Python itself left out.
     */
    private static List<String> pyproject(List<String> lines) {
        List<String> names = new ArrayList<>();
        String table = "";
        boolean inArray = false;
        for (String line : lines) {
            String t = line.strip();
            if (t.length() > 300) {
                continue;
            }
            if (inArray || table.equals("[project]") && DEPENDENCY_ARRAY.matcher(t).lookingAt()) {
                int from = inArray ? 0 : t.indexOf('[') + 1;
                Matcher quoted = QUOTED.matcher(t).region(from, t.length());
                int end = from;
                while (quoted.find()) {
                    String requirement = quoted.group(1) != null ? quoted.group(1) : quoted.group(2);
                    Matcher m = REQUIREMENT.matcher(requirement.strip());
                    if (m.matches()) {
                        names.add(requirement(m));
                    }
                    end = quoted.end();
                }
                inArray = t.indexOf(']', end) < 0; // a bracket inside quotes ("celery[redis]") does not close it
                continue;
            }
            if (t.startsWith("[")) {
                table = t;
                continue;
            }
            Matcher m = table.startsWith("[tool.poetry") && table.endsWith("dependencies]") ? CARGO_DEPENDENCY.matcher(t) : null;
            if (m != null && m.matches() && !m.group(1).equals("python")) {
                String version = m.group(2) != null ? m.group(2) : m.group(3);
                names.add(version == null ? m.group(1) : m.group(1) + " " + version);
            }
        }
        return names;
    }

    /**
     * A requirements file: every line a requirement, a comment or an option, at least two requirements, most of
     * them with a version (so that a list of words, such as {@code ls} output, is not one).
     */
    private static List<String> requirements(List<String> lines) {
        List<String> names = new ArrayList<>();
        int versioned = 0;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("-")) {
                continue;
            }
            Matcher m = line.length() <= 300 ? REQUIREMENT.matcher(line) : null;
            if (m == null || !m.matches()) {
                return List.of();
            }
            if (m.group(2) != null) {
                versioned++;
            }
            names.add(requirement(m));
        }
        return names.size() >= 2 && versioned * 2 >= names.size() ? names : List.of();
    }
}
