package dev.workingmemory.samples.shared;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * The live samples' loop: a {@code > } prompt, one line of input per message until end of input or the quit word,
 * blank lines skipped. A line that fails (network, model) is printed as {@code ERROR: …} and the chat goes on.
 * Not thread-safe: one terminal at a time.
 */
public final class TerminalChat {

    private TerminalChat() {
    }

    /**
     * @param echo    whether to print each line as {@code USER:} (when the input is not a terminal that shows it)
     * @param quit    the line that ends the chat, case ignored
     * @param onLine  handles one stripped, non-blank line
     */
    public static void run(BufferedReader in, PrintStream out, ConversationPrinter printer, boolean echo, String quit,
                           Consumer<String> onLine) {
        try {
            while (true) {
                out.print("> ");
                out.flush();
                String line = in.readLine();
                if (line == null || line.strip().equalsIgnoreCase(quit)) {
                    out.println();
                    return;
                }
                line = line.strip();
                if (line.isEmpty()) {
                    continue;
                }
                if (echo) {
                    printer.user(line);
                }
                try {
                    onLine.accept(line);
                } catch (RuntimeException e) {
                    out.println("ERROR: " + e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
