package dev.workingmemory.slots;

import dev.workingmemory.internal.Substrings;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dependencies a tool could not get, from the messages package managers, build tools, bundlers and runtimes print
 * for them: one rule per documented message of a tool, one item per package however many lines of one failure name
 * it. Imports of a project's own files (relative or absolute paths) are not dependencies. Thread-safe (stateless).
 */
final class UnresolvedDependencies {

    private static final String UNRESOLVED = " (unresolved)";
    private static final String MISSING_MODULE = " (missing module)";
    /** What follows a package's name in a requirement ({@code x==1.0}, {@code x@^2}, {@code x (^3.0)}): dropped to compare. */
    private static final Pattern PACKAGE_KEY = Pattern.compile("(?<=.)[@=<>~!^ (].*$");

    private static final Pattern MAVEN_MISSING = Pattern.compile("(?:Could not find artifact|Failure to find) (\\S+)");
    private static final Pattern MAVEN_UNRESOLVED = Pattern.compile("The following artifacts could not be resolved: ([^ ]+(?:, [^ ]+){0,20})");
    // a quoted name starts after white space: each run of a line is then read once, not once per quote in it
    static final Pattern NPM_MISSING = Pattern.compile("(?<!\\S)'(\\S+?)@([^'\\s]*)' is not in (?:this|the npm) registry|No matching version found for (\\S+?)\\.?$");
    /** Poetry: "Because app depends on pydantic (^3.0) which doesn't match any versions, …". */
    private static final Pattern SOLVER_MISSING = Pattern.compile(
            "(?:depends on|no versions of) ([A-Za-z][\\w.-]*) (?:\\(([^)]{1,40})\\) )?(?:which )?(?:doesn't|don't|does not|do not) match any versions");
    /** npm's ERESOLVE: the package whose peer dependency conflicts, under "Could not resolve dependency:". */
    private static final Pattern NPM_PEER = Pattern.compile("^npm (?:ERR!|error) peer (\\S+?)@\"([^\"]{1,60})\" from (\\S+)$");
    /** Go modules: "go: example.com/m@v1.2.3: reading …: unknown revision v1.2.3" (or invalid version, not found). */
    private static final Pattern GO_MODULE_MISSING = Pattern.compile(
            "^go: ([\\w.-]+\\.[a-z]{2,}/[\\w./~-]*[\\w~-])@(v[\\w.+-]+): .*(?:unknown revision|invalid version|not found|no matching versions)");
    /** A 404 of the npm registry (npm E404, yarn, pnpm's ERR_PNPM_FETCH_404): the package is the URL's path. */
    private static final Pattern REGISTRY_URL = Pattern.compile(
            "https?://registry\\.(?:npmjs\\.org|yarnpkg\\.com)/((?:@[\\w.-]+(?:%2[fF]|/))?[\\w.-]+)");
    private static final Pattern NOT_FOUND = Pattern.compile("\\b404\\b|Not [Ff]ound");
    /** pip: "Failed building wheel for x", "Could not build wheels for x, which is required …". */
    private static final Pattern PIP_WHEEL = Pattern.compile("(?:Failed building wheel for|Could not build wheels for) ([A-Za-z][\\w.-]*\\w)");
    /** conda's PackagesNotFoundError lists the packages below it, one "  - name=version" line each. */
    private static final Pattern CONDA_HEADER = Pattern.compile("PackagesNotFoundError|packages are not available from current channels");
    private static final Pattern CONDA_ITEM = Pattern.compile("^\\s+- ([A-Za-z0-9][\\w.-]*)");

    /** Messages that name a package in their first group that matched; one per documented message of a tool. */
    /**
     * uv: "Because x was not found in the package registry", "Because there is no version of x==1.0". A name starts a
     * word: from every letter of a long word, the rest of it would be read again.
     */
    static final Pattern UV_MISSING = Pattern.compile(
            "(?<![\\w.-])([A-Za-z][\\w.-]*+) was not found in the package registry|there is no version of ([A-Za-z][\\w.-]*\\w)");
    private static final List<Pattern> PACKAGE_MESSAGES = List.of(
            // Gradle: "> Could not find g:a:v." and "> Could not resolve g:a:v."
            Pattern.compile("^\\s*> Could not (?:find|resolve) ([\\w.-]+:[\\w.-]+(?::[\\w.+-]*[\\w+-])?)\\.?$"),
            // Gradle: "Plugin [id: 'x', version: 'v'] was not found in any of the following sources"
            Pattern.compile("Plugin \\[id: '([\\w.-]+)'[^]]{0,80}] was not found"),
            // sbt / Coursier: "Error downloading g:a:v"; Ivy: "unresolved dependency: g#a;v: not found"
            Pattern.compile("Error downloading ([\\w.-]+:[\\w.-]+:[\\w.+-]*[\\w+-])|unresolved dependency: ([\\w.-]+#[\\w.-]+;[\\w.+-]+): not found"),
            // yarn 1: error Couldn't find package "x" on the "npm" registry
            Pattern.compile("^error Couldn't find package \"([^\"\\s]+)\""),
            // yarn 2+: "YN0035: │ x@npm:^1: Package not found", "YN0082: │ x@npm:^1: No candidates found"
            Pattern.compile("YN0(?:035|082): [^\\w@]*(@?[\\w.-]+(?:/[\\w.-]+)?)@\\S+: (?:Package not found|No candidates found)"),
            // pip: "No matching distribution found for x", "Could not find a version that satisfies the requirement x"
            Pattern.compile("No matching distribution found for (\\S+)|Could not find a version that satisfies the requirement (\\S+)"),
            // pkg_resources: "The 'x>=1' distribution was not found and is required by the application"
            Pattern.compile("The '([^']{1,80})' distribution was not found"),
            // Poetry: "Could not find a matching version of package x"
            Pattern.compile("Could not find a matching version of package (\\S+)"),
            UV_MISSING,
            // apt: "E: Unable to locate package x"; dnf: "No match for argument: x"; apk: "  x (no such package)"
            Pattern.compile("^E: Unable to locate package (\\S+)|^No match for argument: (\\S+)|^\\s+([\\w.+-]+) \\(no such package\\)"),
            // cargo: "no matching package named `x` found", "failed to select a version for [the requirement] `x`"
            Pattern.compile("no matching package (?:named|found for) `([\\w-]+)`|failed to select a version for (?:the requirement )?`([\\w-]+)"),
            // Go modules: "no required module provides package x", "cannot find module providing package x";
            // GOPATH: cannot find package "x" in any of
            Pattern.compile("(?:no required module provides|cannot find module providing) package ([\\w.-]+\\.[a-z]{2,}/[\\w./~-]*[\\w~-])"
                    + "|cannot find package \"([\\w.-]+\\.[a-z]{2,}/[\\w./~-]*[\\w~-])\" in any of"),
            // NuGet: "error NU1101: Unable to find package x.", "error NU1102: …", "error NU1100: Unable to resolve 'x (>= 1)'"
            Pattern.compile("error NU11\\d\\d: Unable to find package ([\\w.-]*\\w)|error NU1100: Unable to resolve '([\\w.-]*\\w)"),
            // Bundler: "Could not find gem 'x (~> 1)'", "Could not find x-1.2.3 in locally installed gems|any of the sources";
            // RubyGems: "Could not find 'x' (>= 0) among 12 total gem(s)"
            Pattern.compile("Could not find gem '([\\w.-]+)|Could not find ([\\w.-]+?)-\\d[\\w.]* in (?:locally installed gems|any of the sources)"
                    + "|Could not find '([\\w.-]+)' \\([^)]{0,40}\\) among"),
            // Composer: "Root composer.json requires a/b, it could not be found in any version",
            // "requires a/b ^9, found a/b[…] but it does not match the constraint"
            Pattern.compile("requires ([a-z0-9][\\w.-]*/[\\w.-]*\\w)(?: [^,]{1,80})?, (?:it could not be found|found [^ ]+ .{0,400}but it does not match)"),
            // pub: "could not find package x at https://pub.dev"; SwiftPM: "no versions of 'x' match the requirement"
            Pattern.compile("could not find package ([\\w-]+) at |no versions of '([^']+)' match the requirement"),
            // Hex: "No package with name x (from: mix.exs) in registry"
            Pattern.compile("No package with name ([\\w-]+) \\(from: "),
            // CMake: Could not find a package configuration file provided by "X"; "Could NOT find X (missing: …)"
            Pattern.compile("Could not find a package configuration file provided by \"([\\w.+-]+)\"|Could NOT find ([\\w.+-]+)(?: \\(missing|\\s*$)"),
            // Perl: "Can't locate Foo/Bar.pm in @INC (you may need to install the Foo::Bar module)"
            Pattern.compile("you may need to install the ([\\w:]+) module"));

    /** Messages that name an imported module, which is a dependency unless it is a path of the project. */
    private static final List<Pattern> MODULE_MESSAGES = List.of(
            // Python 3 and 2: "ModuleNotFoundError: No module named 'x'", "ImportError: No module named x"
            Pattern.compile("(?:ModuleNotFoundError|ImportError): No module named '?([A-Za-z_][\\w.]*)'?"),
            // Node (CommonJS and ESM), Jest, tsc, Bun: Cannot find module 'x', Cannot find package 'x' imported from …
            Pattern.compile("Cannot find (?:module|package) ['\"]([^'\"]+)['\"]"),
            // webpack: "Module not found: Error: Can't resolve 'x' in '/app/src'"
            Pattern.compile("Module not found: (?:Error: )?Can't resolve '([^']+)'"),
            // Vite / Rollup: [vite]: Rollup failed to resolve import "x" from "src/a.ts"; esbuild: [ERROR] Could not resolve "x"
            Pattern.compile("failed to resolve import \"([^\"]+)\" from|\\[ERROR] Could not resolve \"([^\"]+)\""),
            // Ruby: "cannot load such file -- x (LoadError)"
            Pattern.compile("cannot load such file -- (\\S+)"));

    /**
     * Words one of the messages above holds (each rule needs one of them): a line with none is let go after a few
     * {@code indexOf} calls instead of some thirty regular expressions. Case-sensitive, as the rules are.
     */
    private static final Substrings CUES = Substrings.of(List.of("ould not", "ouldn't", "ould NOT", "not found", "not in ",
            "No matching", "match any", "wheel", "nresolved", "YN0", "no version", "locate package", "No match for",
            "no such package", "no matching", "failed to select", "module provid", "find package", "find module",
            "NU11", "does not match", "could not be", "No package with", "need to install", "No module named",
            "Can't resolve", "resolve import", "cannot load such", "Error downloading", "distribution", "registry.",
            "go: ", " peer ", "Failure to find"));

    private UnresolvedDependencies() {
    }

    private static boolean mayName(String line) {
        return CUES.in(line);
    }

    static void find(List<String> lines, Found found) {
        Set<String> seen = new HashSet<>();
        boolean condaList = false;
        for (String line : lines) {
            if (line.length() > BuildErrors.MAX_LINE) {
                continue;
            }
            Matcher m;
            if (condaList && (m = CONDA_ITEM.matcher(line)).find()) {
                add(found, seen, m.group(1), UNRESOLVED);
                continue;
            }
            condaList = condaList && line.isBlank()
                    || line.contains("ackages") && CONDA_HEADER.matcher(line).find();
            if (!line.contains(" ") || !mayName(line)) {
                continue;
            }
            if ((m = MAVEN_MISSING.matcher(line)).find()) {
                add(found, seen, mavenCoordinates(m.group(1)), UNRESOLVED);
            } else if ((m = MAVEN_UNRESOLVED.matcher(line)).find()) {
                for (String coordinates : m.group(1).split(", ")) {
                    if (coordinates.split(":").length >= 3) {
                        add(found, seen, mavenCoordinates(coordinates), UNRESOLVED);
                    }
                }
            } else if ((m = NPM_MISSING.matcher(line)).find()) {
                add(found, seen, m.group(1) != null ? m.group(1) + "@" + m.group(2) : m.group(3), UNRESOLVED);
            } else if (line.contains("match any versions") && (m = SOLVER_MISSING.matcher(line)).find()) {
                add(found, seen, m.group(1) + (m.group(2) == null ? "" : " " + m.group(2)), UNRESOLVED);
            } else if (line.contains(" peer ") && (m = NPM_PEER.matcher(line)).matches()) {
                found.add(Found.DEPENDENCY, m.group(3) + " needs peer " + m.group(1) + "@" + m.group(2) + " (conflict)");
            } else if (line.startsWith("go: ") && (m = GO_MODULE_MISSING.matcher(line)).find()) {
                add(found, seen, m.group(1) + "@" + m.group(2), UNRESOLVED);
            } else if (line.contains("registry.") && (m = REGISTRY_URL.matcher(line)).find() && NOT_FOUND.matcher(line).find()) {
                add(found, seen, m.group(1).replace("%2f", "/").replace("%2F", "/"), UNRESOLVED);
            } else if ((m = PIP_WHEEL.matcher(line)).find()) {
                add(found, seen, m.group(1), " (wheel build failed)");
            } else if ((m = first(PACKAGE_MESSAGES, line)) != null) {
                add(found, seen, group(m), UNRESOLVED);
            } else if ((m = first(MODULE_MESSAGES, line)) != null && !isPath(group(m))) {
                add(found, seen, Imports.packageOf(group(m)), MISSING_MODULE);
            }
        }
    }

    private static Matcher first(List<Pattern> patterns, String line) {
        for (Pattern pattern : patterns) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
        return null;
    }

    /** The first group that matched. */
    private static String group(Matcher m) {
        for (int i = 1; i <= m.groupCount(); i++) {
            if (m.group(i) != null) {
                return m.group(i);
            }
        }
        throw new IllegalStateException("a package message without a group: " + m.pattern());
    }

    private static boolean isPath(String module) {
        return module.startsWith(".") || module.startsWith("/") || module.startsWith("~") || module.contains(":\\");
    }

    /** Adds a dependency that could not be had, once per package however many lines name it. */
    private static void add(Found found, Set<String> seen, String name, String why) {
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
}
