package dev.workingmemory.jdbc;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.store.WorkingMemoryStoreException;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;

import static dev.workingmemory.jdbc.Database.queryOne;
import static dev.workingmemory.jdbc.Database.update;

/**
 * A LangChain4j {@link ChatMemoryStore} in PostgreSQL, beside the tables of {@link JdbcWorkingMemoryStore}: each memory's
 * messages are one row, in LangChain4j's JSON ({@link ChatMessageSerializer}), replaced whole by each update.
 *
 * <p>A working memory does not need it: {@link JdbcWorkingMemoryStore} keeps the conversation itself, merged across
 * instances. It is for LangChain4j's own chat memories, or for a provider that must keep its messages where existing
 * code reads them ({@code chatMemoryStore(new JdbcChatMemoryStore(dataSource))}); that provider reads a memory's
 * messages once and writes them whole, so two instances serving one conversation overwrite each other's turns.
 *
 * <p>A memory id is identified by {@code String.valueOf(memoryId)}. Failures are {@link WorkingMemoryStoreException}s.
 *
 * <p>Thread-safe; holds no connection between calls.
 */
public final class JdbcChatMemoryStore implements ChatMemoryStore {

    private final Database database;

    /**
     * @param dataSource where the tables are (the current schema of its connections), created if absent
     * @throws WorkingMemoryStoreException when the database cannot be reached or holds a newer schema
     */
    public JdbcChatMemoryStore(DataSource dataSource) {
        this.database = Schema.open(dataSource);
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        byte[] id = id(memoryId);
        return database.read("read the messages of memory " + memoryId, connection -> queryOne(connection,
                "SELECT messages FROM wm_chat_messages WHERE memory_id_hash = ?",
                row -> new ArrayList<>(ChatMessageDeserializer.messagesFromJson(Texts.decode(row.getBytes(1)))),
                Texts.hash(id)).orElseGet(ArrayList::new));
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        byte[] id = id(memoryId);
        Ensure.notNull(messages, "messages");
        byte[] json = Texts.encode(ChatMessageSerializer.messagesToJson(messages));
        database.write("save the messages of memory " + memoryId, connection -> update(connection,
                "INSERT INTO wm_chat_messages (memory_id_hash, memory_id, messages) VALUES (?, ?, ?)"
                        + " ON CONFLICT (memory_id_hash) DO UPDATE SET messages = EXCLUDED.messages",
                Texts.hash(id), id, json));
    }

    @Override
    public void deleteMessages(Object memoryId) {
        byte[] id = id(memoryId);
        database.write("delete the messages of memory " + memoryId, connection -> update(connection,
                "DELETE FROM wm_chat_messages WHERE memory_id_hash = ?", Texts.hash(id)));
    }

    private static byte[] id(Object memoryId) {
        return Texts.encode(String.valueOf(Ensure.notNull(memoryId, "memoryId")));
    }
}
