package dev.workingmemory.slots;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dependencies in tool results: one that could not be resolved, one item per package however many lines name it
 * (Maven, Gradle, npm and its peer conflicts, a 404 of the npm registry seen by npm, yarn or pnpm, webpack, pip and its
 * wheel builds, Poetry, cargo, Go modules, NuGet, a Python module, Node package or Ruby file not found); and the dependencies a build
 * file declares (a Maven POM, a Gradle build script, {@code package.json}, {@code requirements.txt},
 * {@code pyproject.toml}, {@code go.mod}, {@code Cargo.toml}), one item per file listing them. Import blocks of source
 * files are {@link Imports}. Thread-safe (stateless).
 */
final class Dependencies {

    private static final String UNRESOLVED = " (unresolved)";
    private static final String MISSING_MODULE = " (missing module)";
    /** What follows a package's name in a requirement ({@code x==1.0}, {@code x@^2}, {@code x (^3.0)}): dropped to compare. */
    private static final Pattern PACKAGE_KEY = Pattern.compile("(?<=.)[@=<>~!^ (].*$");
    private static final Pattern MAVEN_MISSING = Pattern.compile("Could not find artifact (\\S+)");
    private static final Pattern MAVEN_UNRESOLVED = Pattern.compile("The following artifacts could not be resolved: ([^ ]+(?:, [^ ]+){0,20})");
    private static final Pattern GRADLE_MISSING = Pattern.compile("^\\s*> Could not (?:find|resolve) ([\\w.-]+:[\\w.-]+(?::[\\w.+-]*[\\w+-])?)\\.?$");
    private static final Pattern NPM_MISSING = Pattern.compile("'(\\S+?)@([^'\\s]*)' is not in (?:this|the npm) registry|No matching version found for (\\S+?)\\.?$");
    private static final Pattern YARN_MISSING = Pattern.compile("^error Couldn't find package \"([^\"\\s]+)\"");
    /** Poetry: "Because app depends on pydantic (^3.0) which doesn't match any versions, …". */
    private static final Pattern SOLVER_MISSING = Pattern.compile(
            "(?:depends on|no versions of) ([A-Za-z][\\w.-]*) (?:\\(([^)]{1,40})\\) )?(?:which )?(?:doesn't|don't|does not|do not) match any versions");
    /** npm's ERESOLVE: the package whose peer dependency conflicts, under "Could not resolve dependency:". */
    private static final Pattern NPM_PEER = Pattern.compile("^npm (?:ERR!|error) peer (\\S+?)@\"([^\"]{1,60})\" from (\\S+)$");
    private static final Pattern PIP_MISSING = Pattern.compile("No matching distribution found for (\\S+)");
    /** webpack (and tools built on it): "Module not found: Error: Can't resolve 'axios' in '/app/src'". */
    private static final Pattern WEBPACK_MISSING = Pattern.compile("Module not found: (?:Error: )?Can't resolve '([^']+)'");
    /** cargo: "no matching package named `serde_jsonn` found", "failed to select a version for the requirement `tokio = …`". */
    private static final Pattern CARGO_MISSING = Pattern.compile(
            "no matching package (?:named|found for) `([\\w-]+)`|failed to select a version for (?:the requirement )?`([\\w-]+)");
    /** Go modules: "no required module provides package X", "cannot find module providing package X". */
    private static final Pattern GO_PACKAGE_MISSING = Pattern.compile(
            "(?:no required module provides|cannot find module providing) package ([\\w.-]+\\.[a-z]{2,}/[\\w./~-]*[\\w~-])");
    /** Go modules: "go: example.com/m@v1.2.3: reading …: unknown revision v1.2.3" (or invalid version, not found). */
    private static final Pattern GO_MODULE_MISSING = Pattern.compile(
            "^go: ([\\w.-]+\\.[a-z]{2,}/[\\w./~-]*[\\w~-])@(v[\\w.+-]+): .*(?:unknown revision|invalid version|not found|no matching versions)");
    /** pip: "Could not find a version that satisfies the requirement X (from versions: …)". */
    private static final Pattern PIP_NO_VERSION = Pattern.compile("Could not find a version that satisfies the requirement (\\S+)");
    /** pip: "Failed building wheel for X", "Could not build wheels for X, which is required …". */
    private static final Pattern PIP_WHEEL = Pattern.compile("(?:Failed building wheel for|Could not build wheels for) ([A-Za-z][\\w.-]*[\\w])");
    /** Poetry: "Could not find a matching version of package X". */
    private static final Pattern POETRY_MISSING = Pattern.compile("Could not find a matching version of package (\\S+)");
    /** A 404 of the npm registry (npm E404, yarn, pnpm's ERR_PNPM_FETCH_404): the package is the URL's path. */
    private static final Pattern REGISTRY_URL = Pattern.compile(
            "https?://registry\\.(?:npmjs\\.org|yarnpkg\\.com)/((?:@[\\w.-]+(?:%2[fF]|/))?[\\w.-]+)");
    private static final Pattern NOT_FOUND = Pattern.compile("\\b404\\b|Not [Ff]ound");
    /** Python: "ImportError: No module named requests" (Python 2, unquoted) and the quoted Python 3 form. */
    private static final Pattern PYTHON_MODULE_MISSING = Pattern.compile(
            "(?:ModuleNotFoundError|ImportError): No module named '?([A-Za-z_][\\w.]*)'?");
    /** Ruby: "cannot load such file -- nokogiri (LoadError)". */
    private static final Pattern RUBY_MISSING = Pattern.compile("cannot load such file -- (\\S+)");
    /** NuGet (NU1101, NU1102): "Unable to find package Newtonsoft.Json. No packages exist …". */
    private static final Pattern NUGET_MISSING = Pattern.compile("error NU11\\d\\d: Unable to find package ([\\w.-]*\\w)");
    private static final Pattern MODULE_MISSING = Pattern.compile("(?:ModuleNotFoundError: No module named|Cannot find module|Cannot find package) '([^']+)'");
    private static final Pattern GRADLE_DECLARATION = Pattern.compile(
            "^\\s*(?:implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly"
                    + "|annotationProcessor|kapt|ksp|compile|testCompile|runtime)\\s*\\(?\\s*(?:[\"']([\\w.-]+):([\\w.-]+)(?::([\\w.+-]+))?(?::[\\w.-]+)?[\"']"
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

    static void unresolved(List<String> lines, Found found) {
        Set<String> seen = new HashSet<>();
        for (String line : lines) {
            if (line.length() > BuildErrors.MAX_LINE || !line.contains(" ")) {
                continue;
            }
            Matcher m;
            if ((m = MAVEN_MISSING.matcher(line)).find()) {
                missing(found, seen, mavenCoordinates(m.group(1)), UNRESOLVED);
            } else if ((m = MAVEN_UNRESOLVED.matcher(line)).find()) {
                for (String coordinates : m.group(1).split(", ")) {
                    if (coordinates.split(":").length >= 3) {
                        missing(found, seen, mavenCoordinates(coordinates), UNRESOLVED);
                    }
                }
            } else if ((m = GRADLE_MISSING.matcher(line)).matches()) {
                missing(found, seen, m.group(1), UNRESOLVED);
            } else if ((m = NPM_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1) != null ? m.group(1) + "@" + m.group(2) : m.group(3), UNRESOLVED);
            } else if (line.startsWith("error Couldn't") && (m = YARN_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1), UNRESOLVED);
            } else if (line.contains("match any versions") && (m = SOLVER_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1) + (m.group(2) == null ? "" : " " + m.group(2)), UNRESOLVED);
            } else if (line.contains(" peer ") && (m = NPM_PEER.matcher(line)).matches()) {
                found.add(Found.DEPENDENCY, m.group(3) + " needs peer " + m.group(1) + "@" + m.group(2) + " (conflict)");
            } else if ((m = PIP_MISSING.matcher(line)).find() || (m = PIP_NO_VERSION.matcher(line)).find()
                    || (m = POETRY_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1), UNRESOLVED);
            } else if ((m = PIP_WHEEL.matcher(line)).find()) {
                missing(found, seen, m.group(1), " (wheel build failed)");
            } else if ((m = CARGO_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1) != null ? m.group(1) : m.group(2), UNRESOLVED);
            } else if ((m = GO_PACKAGE_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1), UNRESOLVED);
            } else if (line.startsWith("go: ") && (m = GO_MODULE_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1) + "@" + m.group(2), UNRESOLVED);
            } else if (line.contains("registry.") && (m = REGISTRY_URL.matcher(line)).find()
                    && NOT_FOUND.matcher(line).find()) {
                missing(found, seen, m.group(1).replace("%2f", "/").replace("%2F", "/"), UNRESOLVED);
            } else if ((m = NUGET_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1), UNRESOLVED);
            } else if ((m = PYTHON_MODULE_MISSING.matcher(line)).find()) {
                missing(found, seen, m.group(1), MISSING_MODULE);
            } else if (((m = MODULE_MISSING.matcher(line)).find() || (m = WEBPACK_MISSING.matcher(line)).find()
                    || (m = RUBY_MISSING.matcher(line)).find()) && !m.group(1).startsWith(".") && !m.group(1).startsWith("/")) {
                missing(found, seen, Imports.packageOf(m.group(1)), MISSING_MODULE);
            }
        }
    }

    /** Adds a dependency that could not be had, once per package however many lines name it. */
    private static void missing(Found found, Set<String> seen, String name, String why) {
        if (seen.add(PACKAGE_KEY.matcher(name.toLowerCase(Locale.ROOT)).replaceFirst(""))) {
            found.add(Found.DEPENDENCY, name + why);
        }
    }

    /** {@code g:a:jar:v} or {@code g:a:jar:classifier:v} as {@code g:a:v}. */
    private static String mavenCoordinates(String coordinates) {
        String[] parts = coordinates.strip().split(":");
        if (parts.length < 3) {
            return coordinates.strip();
        }
        return parts[0] + ":" + parts[1] + ":" + parts[parts.length - 1];
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
