package dev.workingmemory.slots;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The external packages a source file imports, as one item ({@code imports: com.fasterxml.jackson, org.slf4j}):
 * JVM imports (Java, and Kotlin's without semicolons) reduced to their first three package segments, Python
 * top-level modules, JavaScript/TypeScript packages, Go modules, Rust crates. The standard library (JDK, Python's, Node's
 * built-ins, Go's paths without a host, Rust's {@code std}, {@code core}, {@code alloc}) and the project's own code (the JVM file's own package root, relative
 * imports, Rust's {@code crate::}, {@code self::}, {@code super::}) are left out. Only lines starting with an import statement count, so grep output
 * or prose quoting an import is no source file. Thread-safe (stateless).
 */
final class Imports {

    private static final Pattern JVM_PACKAGE = Pattern.compile("^package ([\\w.]+);?\\s*$");
    private static final Pattern JVM_IMPORT = Pattern.compile("^import (?:static )?([\\w.]+?)(?:\\.\\*)?;?\\s*$");
    private static final Pattern PY_IMPORT = Pattern.compile("^import ([\\w.]+(?:\\s*,\\s*[\\w.]+){0,20})(?: as \\w+)?\\s*$");
    private static final Pattern PY_FROM = Pattern.compile("^from ([\\w.]+) import ");
    private static final Pattern JS_IMPORT = Pattern.compile("^import (?:type )?(?:[\\w*{}\\s,$]{1,300} from )?[\"']([^\"']+)[\"'];?\\s*$");
    /** A Go import: {@code import "path"}, or a line {@code "path"} (with an optional alias) inside {@code import ( … )}. */
    private static final Pattern GO_IMPORT = Pattern.compile("^(?:import )?\\s*(?:[\\w.]+ )?\"([\\w.~/-]+)\"\\s*$");
    /** A Rust {@code use}: the crate is the path's first segment ({@code use tokio::net::TcpListener;}). */
    private static final Pattern RUST_USE = Pattern.compile("^(?:pub(?:\\([\\w:]+\\))? )?use (?:::)?([a-z_]\\w*)::");
    private static final Set<String> RUST_OWN_OR_STD = Set.of("std", "core", "alloc", "crate", "self", "super");
    private static final Pattern JS_REQUIRE = Pattern.compile("^(?:const|let|var) [\\w{}\\s,$]{1,300}= require\\([\"']([^\"']+)[\"']\\);?\\s*$");

    private static final List<String> JVM_PLATFORM = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.");
    private static final Set<String> PYTHON_STDLIB = Set.of(
            "__future__", "abc", "argparse", "array", "ast", "asyncio", "base64", "bisect", "builtins", "calendar",
            "collections", "concurrent", "configparser", "contextlib", "copy", "csv", "ctypes", "dataclasses", "datetime",
            "decimal", "difflib", "email", "enum", "errno", "fnmatch", "fractions", "functools", "gc", "getpass", "glob",
            "gzip", "hashlib", "heapq", "hmac", "html", "http", "importlib", "inspect", "io", "ipaddress", "itertools",
            "json", "logging", "math", "mimetypes", "multiprocessing", "numbers", "operator", "os", "pathlib", "pickle",
            "platform", "pprint", "queue", "random", "re", "secrets", "select", "shlex", "shutil", "signal", "socket",
            "sqlite3", "ssl", "stat", "statistics", "string", "struct", "subprocess", "sys", "tempfile", "textwrap",
            "threading", "time", "timeit", "tomllib", "traceback", "types", "typing", "unicodedata", "unittest", "urllib",
            "uuid", "warnings", "weakref", "xml", "zipfile", "zlib", "zoneinfo");
    private static final Set<String> NODE_BUILTINS = Set.of(
            "assert", "buffer", "child_process", "cluster", "crypto", "dgram", "dns", "events", "fs", "fs/promises",
            "http", "http2", "https", "net", "os", "path", "perf_hooks", "process", "querystring", "readline", "stream",
            "string_decoder", "timers", "tls", "tty", "url", "util", "v8", "vm", "worker_threads", "zlib");

    private Imports() {
    }

    /**
     * Whether the line (without its indentation) is an import statement of Java or Kotlin, Python or
     * JavaScript/TypeScript ({@code import com.acme.Cart;}, {@code from .models import Cart}, {@code import os.path as
     * p}, {@code import { a } from "./b"}): what {@link #find} reads, whatever the package.
     */
    static boolean isStatement(String line) {
        if (line.length() > BuildErrors.MAX_LINE || !(line.startsWith("import ") || line.startsWith("from "))) {
            return false;
        }
        return PY_FROM.matcher(line).lookingAt() || JVM_IMPORT.matcher(line).matches()
                || PY_IMPORT.matcher(line).matches() || JS_IMPORT.matcher(line).matches();
    }

    /** Adds one dependency item for the imports of a source file; returns whether there were any. */
    static boolean find(List<String> lines, Found found) {
        String ownPackage = null;
        Set<String> jvm = new LinkedHashSet<>();
        Set<String> python = new LinkedHashSet<>();
        Set<String> javaScript = new LinkedHashSet<>();
        Set<String> go = new LinkedHashSet<>();
        Set<String> rust = new LinkedHashSet<>();
        boolean goBlock = false;
        for (String line : lines) {
            // Go: an import block, or a single import after the package line (a JavaScript file has none)
            if (goBlock || line.startsWith("import (") || ownPackage != null && line.startsWith("import \"")) {
                goBlock = goImport(line, goBlock, go);
                continue;
            }
            if (line.length() > BuildErrors.MAX_LINE || !(line.startsWith("import ") || line.startsWith("from ")
                    || line.startsWith("package ") || line.startsWith("const ") || line.startsWith("let ")
                    || line.startsWith("var ") || line.startsWith("use ") || line.startsWith("pub"))) {
                continue;
            }
            Matcher m;
            if ((m = RUST_USE.matcher(line)).lookingAt()) {
                rust.add(m.group(1));
            } else if ((m = JVM_PACKAGE.matcher(line)).matches()) {
                ownPackage = m.group(1);
            } else if ((m = JS_IMPORT.matcher(line)).matches() || (m = JS_REQUIRE.matcher(line)).matches()) {
                javaScript.add(m.group(1));
            } else if ((line.endsWith(";") || ownPackage != null) && (m = JVM_IMPORT.matcher(line)).matches()) {
                // Kotlin, Scala and Groovy imports end without a semicolon: after a package line they are JVM ones
                jvm.add(m.group(1));
            } else if ((m = PY_FROM.matcher(line)).lookingAt()) {
                python.add(m.group(1));
            } else if ((m = PY_IMPORT.matcher(line)).matches()) {
                for (String module : m.group(1).split(",")) {
                    (ownPackage != null ? jvm : python).add(module.strip());
                }
            }
        }
        Set<String> external = new LinkedHashSet<>();
        if ((ownPackage != null || !jvm.isEmpty()) && go.isEmpty()) {
            external.addAll(jvmExternal(jvm, ownPackage));
        }
        if (ownPackage == null) {
            python.stream().filter(m -> !m.startsWith(".")).map(m -> m.split("\\.")[0])
                    .filter(m -> !PYTHON_STDLIB.contains(m)).forEach(external::add);
        }
        go.stream().filter(path -> path.substring(0, Math.max(0, path.indexOf('/'))).contains("."))
                .map(Imports::goModule).forEach(external::add);
        rust.stream().filter(crate -> !RUST_OWN_OR_STD.contains(crate)).forEach(external::add);
        javaScript.stream().filter(p -> !p.startsWith(".") && !p.startsWith("/") && !p.startsWith("node:"))
                .map(Imports::packageOf).filter(p -> !NODE_BUILTINS.contains(p)).forEach(external::add);
        if (external.isEmpty()) {
            return false;
        }
        found.add(Found.DEPENDENCY, Dependencies.list("imports", List.copyOf(external)));
        return true;
    }

    /**
     * Reads one line of Go imports into {@code paths}; returns whether an {@code import ( … )} block is still open.
     */
    private static boolean goImport(String line, boolean inBlock, Set<String> paths) {
        String t = line.strip();
        if (inBlock && t.startsWith(")")) {
            return false;
        }
        if (t.startsWith("import (")) {
            return !t.endsWith(")");
        }
        Matcher m = t.length() <= 300 ? GO_IMPORT.matcher(t) : null;
        if (m != null && m.matches()) {
            paths.add(m.group(1));
        }
        return inBlock;
    }

    /** A Go import path's module: its host and the two segments after it ({@code github.com/spf13/cobra}). */
    private static String goModule(String path) {
        String[] parts = path.split("/");
        return String.join("/", List.of(parts).subList(0, Math.min(3, parts.length)));
    }

    /** @param ownPackage the file's package, {@code null} when it declares none */
    private static Set<String> jvmExternal(Set<String> imports, String ownPackage) {
        String ownRoot = null;
        if (ownPackage != null) {
            String[] own = ownPackage.split("\\.");
            // com.acme.shop -> com.acme.; app.routes -> app.: the project's own code shares its first segments
            ownRoot = own.length >= 3 ? own[0] + "." + own[1] + "." : own[0] + ".";
        }
        Set<String> external = new LinkedHashSet<>();
        for (String imported : imports) {
            if (ownRoot != null && imported.startsWith(ownRoot) || JVM_PLATFORM.stream().anyMatch(imported::startsWith)) {
                continue;
            }
            String[] parts = imported.split("\\.");
            // the package ends before the first class name (upper case); a wildcard import has none
            int packageParts = parts.length;
            for (int i = 0; i < parts.length; i++) {
                if (!parts[i].isEmpty() && Character.isUpperCase(parts[i].charAt(0))) {
                    packageParts = i;
                    break;
                }
            }
            if (packageParts > 0) {
                external.add(String.join(".", List.of(parts).subList(0, Math.min(3, packageParts))));
            }
        }
        return external;
    }

    /** A Node package specifier's package: {@code @scope/name} or {@code name}, without a subpath. */
    static String packageOf(String specifier) {
        String[] parts = specifier.split("/");
        if (specifier.startsWith("@") && parts.length >= 2) {
            return parts[0] + "/" + parts[1];
        }
        return NODE_BUILTINS.contains(specifier) ? specifier : parts[0];
    }
}
