package dev.workingmemory.samples.coding;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The coding agent's tools over a copy of the bundled project ({@code coding-project/} on the classpath) in a
 * directory: {@code list_files}, {@code read_file}, {@code edit_file} and {@code run_tests}, which compiles the
 * sources and tests with the JDK's compiler and runs {@code shop.PricingTests} in a fresh class loader. Paths are
 * relative to the project and cannot leave it. Not thread-safe: one agent at a time.
 */
public final class ProjectTools {

    /** The files of the bundled project, relative to {@code coding-project/}. */
    static final List<String> BUNDLED_FILES = List.of("README.md", "src/shop/Pricing.java", "test/shop/PricingTests.java");
    private static final String TEST_RUNNER = "shop.PricingTests";

    private final Path root;

    private ProjectTools(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Copies the bundled project into {@code dir} (created if missing) and gives tools over the copy. */
    public static ProjectTools copyBundledProject(Path dir) {
        try {
            for (String file : BUNDLED_FILES) {
                Path target = dir.resolve(file);
                Files.createDirectories(target.getParent());
                try (InputStream in = ProjectTools.class.getResourceAsStream("/coding-project/" + file)) {
                    if (in == null) {
                        throw new IllegalStateException("The bundled project lacks " + file);
                    }
                    Files.copy(in, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the bundled project to " + dir, e);
        }
        return new ProjectTools(dir);
    }

    /** The project's directory. */
    public Path root() {
        return root;
    }

    @Tool(name = "list_files", value = "Lists the files of the project, one relative path a line.")
    public String listFiles() {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(file -> !file.startsWith(root.resolve("out")))
                    .map(file -> root.relativize(file).toString().replace('\\', '/')).sorted()
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Tool(name = "read_file", value = "Reads a file of the project, each line prefixed with its number.")
    public String readFile(@P(name = "path", value = "The file's path relative to the project, e.g. src/shop/Pricing.java") String path) {
        List<String> lines = read(resolve(path)).lines().toList();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            out.append(String.format(Locale.ROOT, "%4d  %s%n", i + 1, lines.get(i)));
        }
        return out.toString();
    }

    @Tool(name = "edit_file", value = "Replaces a piece of text that occurs exactly once in a file of the project.")
    public String editFile(@P(name = "path", value = "The file's path relative to the project") String path,
                           @P(name = "old", value = "The exact text to replace; it must occur once in the file") String old,
                           @P(name = "replacement", value = "The text to put in its place") String replacement) {
        Path file = resolve(path);
        String text = read(file);
        int at = text.indexOf(old);
        if (old.isEmpty() || at < 0 || text.indexOf(old, at + 1) >= 0) {
            throw new IllegalArgumentException("'" + old + "' must occur exactly once in " + path + " (found "
                    + (at < 0 ? "none" : "several") + ")");
        }
        try {
            Files.writeString(file, text.substring(0, at) + replacement + text.substring(at + old.length()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long line = text.substring(0, at).lines().count() + (at == 0 || text.charAt(at - 1) == '\n' ? 1 : 0);
        return "Edited " + path + " at line " + line + ": '" + old + "' is now '" + replacement + "'.";
    }

    @Tool(name = "run_tests", value = "Compiles the project and runs its tests; answers with the test log.")
    public String runTests() {
        Path classes = root.resolve("out");
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("run_tests needs a JDK (no Java compiler in this runtime)");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
             Stream<Path> walk = Files.walk(root)) {
            Files.createDirectories(classes);
            List<Path> sources = walk.filter(path -> path.toString().endsWith(".java")).toList();
            boolean compiled = compiler.getTask(null, files, diagnostics, List.of("-d", classes.toString()), null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
            if (!compiled) {
                return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                        .map(d -> root.relativize(Path.of(d.getSource().toUri())) + ":" + d.getLineNumber() + ": error: "
                                + d.getMessage(Locale.ROOT))
                        .collect(Collectors.joining("\n", "", "\n[ERROR] COMPILATION FAILURE"));
            }
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            try (URLClassLoader loader = new URLClassLoader(new URL[]{classes.toUri().toURL()}, null);
                 PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
                loader.loadClass(TEST_RUNNER).getMethod("run", PrintStream.class).invoke(null, out);
            }
            return log.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("The project has no runnable " + TEST_RUNNER + ": " + e, e);
        } catch (InvocationTargetException e) {
            return "[ERROR] The tests threw " + e.getCause();
        }
    }

    private Path resolve(String path) {
        Path file = root.resolve(path == null ? "" : path).normalize();
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("No file '" + path + "' in the project; list_files lists them");
        }
        return file;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
