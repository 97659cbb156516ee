package dev.workingmemory.testing;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.store.FileWorkingMemoryStore;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * An application instance in a child JVM ({@link ChildJvm}) taking {@link NumberedTurns} of one user's conversation on
 * the commands it reads from its standard input: {@code turn <n>} takes turn n through {@code AiServices} and prints
 * {@code took <n>} once the call returned; {@code close} closes the provider and prints {@code closed}. It prints
 * {@code ready} when it can take commands.
 *
 * <p>Arguments: the file store's directory, the window's size in messages, the user.
 */
public final class ConversationProcess {

    private ConversationProcess() {
    }

    public static void main(String[] args) throws IOException {
        WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                .store(new FileWorkingMemoryStore(Path.of(args[0])))
                .maxMessages(Integer.parseInt(args[1]))
                .build();
        serve(provider, args[2]);
    }

    /** Takes turns of {@code user} on {@code provider} as the standard input commands, until {@code close}. */
    public static void serve(WorkingMemoryProvider provider, String user) throws IOException {
        NumberedTurns.Assistant assistant = NumberedTurns.assistant(provider);
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = in.readLine(); command != null; command = in.readLine()) {
            if (command.startsWith("turn ")) {
                int n = Integer.parseInt(command.substring(5).trim());
                NumberedTurns.take(assistant, user, n);
                System.out.println("took " + n);
            } else if (command.equals("close")) {
                provider.close();
                System.out.println("closed");
                System.out.flush();
                return;
            }
            System.out.flush();
        }
    }
}
