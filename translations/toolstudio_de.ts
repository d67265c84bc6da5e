<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AnswerDialog</name>
    <message>
        <source>Answer Pending Call</source>
        <translation>Wartenden Aufruf beantworten</translation>
    </message>
    <message>
        <source>Any JSON value, e.g. &quot;https://example.org/report.pdf&quot; or {&quot;url&quot;: &quot;…&quot;}</source>
        <translation>Ein beliebiger JSON-Wert, z. B. &quot;https://example.org/report.pdf&quot; oder {&quot;url&quot;: &quot;…&quot;}</translation>
    </message>
    <message>
        <source>Or answer with an error</source>
        <translation>Oder mit einem Fehler antworten</translation>
    </message>
    <message>
        <source>What went wrong, as the script will see it</source>
        <translation>Was schiefging – so, wie das Skript es sehen wird</translation>
    </message>
    <message>
        <source>Retryable (the step may try again)</source>
        <translation>Wiederholbar (der Schritt darf es erneut versuchen)</translation>
    </message>
    <message>
        <source>Send Error</source>
        <translation>Fehler senden</translation>
    </message>
    <message>
        <source>Message:</source>
        <translation>Meldung:</translation>
    </message>
    <message>
        <source>Send Result</source>
        <translation>Ergebnis senden</translation>
    </message>
    <message>
        <source>Send the JSON above as the tool&apos;s result (Ctrl+Return)</source>
        <translation>Das JSON oben als Ergebnis des Tools senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Close this dialog; the call keeps waiting (Run ▸ Answer Pending Call)</source>
        <translation>Diesen Dialog schließen; der Aufruf wartet weiter (Ausführen ▸ Wartenden Aufruf beantworten)</translation>
    </message>
    <message>
        <source>&amp;Result (JSON):</source>
        <translation>&amp;Ergebnis (JSON):</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is waiting for an answer — attempt %2 of %3&lt;br&gt;&lt;small&gt;Call %4, step #%5&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; wartet auf eine Antwort – Versuch %2 von %3&lt;br&gt;&lt;small&gt;Aufruf %4, Schritt #%5&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Answer %1</source>
        <translation>%1 beantworten</translation>
    </message>
    <message>
        <source>Not valid JSON: %1</source>
        <translation>Kein gültiges JSON: %1</translation>
    </message>
    <message>
        <source>Enter the result as JSON, e.g. &quot;done&quot;, 42 or {&quot;url&quot;: &quot;…&quot;}.</source>
        <translation>Geben Sie das Ergebnis als JSON ein, z. B. &quot;fertig&quot;, 42 oder {&quot;url&quot;: &quot;…&quot;}.</translation>
    </message>
    <message>
        <source>Text must be in double quotes to be a JSON string.</source>
        <translation>Text muss in doppelten Anführungszeichen stehen, um eine JSON-Zeichenkette zu sein.</translation>
    </message>
    <message>
        <source>Enter the error message the script should see.</source>
        <translation>Geben Sie die Fehlermeldung ein, die das Skript sehen soll.</translation>
    </message>
    <message>
        <source>There is no run to answer.</source>
        <translation>Es gibt keinen Lauf, der eine Antwort erwartet.</translation>
    </message>
    <message>
        <source>The run refused the answer: %1</source>
        <translation>Der Lauf hat die Antwort abgelehnt: %1</translation>
    </message>
</context>
<context>
    <name>ConsoleView</name>
    <message>
        <source>The script&apos;s output appears here when it runs.</source>
        <translation>Die Ausgabe des Skripts erscheint hier, sobald es läuft.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Open a project to start (File ▸ Open Project…)</source>
        <translation>Öffnen Sie ein Projekt, um zu beginnen (Datei ▸ Projekt öffnen…)</translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation>Projekt ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open a project folder (one with a toolstudio.json)</source>
        <translation>Einen Projektordner öffnen (einen mit toolstudio.json)</translation>
    </message>
    <message>
        <source>&amp;Save Script</source>
        <translation>Skript &amp;speichern</translation>
    </message>
    <message>
        <source>Write the script back to its file</source>
        <translation>Das Skript in seine Datei zurückschreiben</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Save the script and run it in the sandbox (F5)</source>
        <translation>Das Skript speichern und in der Sandbox ausführen (F5)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Stop the run: cancel its steps and kill the script (Shift+F5)</source>
        <translation>Den Lauf stoppen: Schritte abbrechen und das Skript beenden (Umschalt+F5)</translation>
    </message>
    <message>
        <source>&amp;Answer Pending Call…</source>
        <translation>Wartenden Aufruf &amp;beantworten…</translation>
    </message>
    <message>
        <source>Answer the oldest call that waits for a person (F6)</source>
        <translation>Den ältesten Aufruf beantworten, der auf eine Person wartet (F6)</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;About Tool Studio</source>
        <translation>Ü&amp;ber Tool Studio</translation>
    </message>
    <message>
        <source>About Tool Studio</source>
        <translation>Über Tool Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tool Studio %1&lt;/h3&gt;&lt;p&gt;Build and debug the tools that LLM agents call, and the agent scripts that call them.&lt;/p&gt;&lt;p&gt;License: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tool Studio %1&lt;/h3&gt;&lt;p&gt;Tools, die LLM-Agenten aufrufen, und die Agentenskripte, die sie aufrufen, bauen und debuggen.&lt;/p&gt;&lt;p&gt;Lizenz: GPL-3.0-or-later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>Skript:</translation>
    </message>
    <message>
        <source>The agent script to edit and run</source>
        <translation>Das Agentenskript, das bearbeitet und ausgeführt wird</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>Konsole</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>Stop the run before opening another project.</source>
        <translation>Stoppen Sie den Lauf, bevor Sie ein anderes Projekt öffnen.</translation>
    </message>
    <message>
        <source>Cannot Open Project</source>
        <translation>Projekt kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>The project has no script.</source>
        <translation>Das Projekt hat kein Skript.</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Cannot Open Script</source>
        <translation>Skript kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Cannot Save Script</source>
        <translation>Skript kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Cannot Run</source>
        <translation>Ausführen nicht möglich</translation>
    </message>
    <message>
        <source>The project has no script to run.</source>
        <translation>Das Projekt hat kein Skript zum Ausführen.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird gestoppt…</translation>
    </message>
    <message>
        <source>▶ Run %1 started: %2</source>
        <translation>▶ Lauf %1 gestartet: %2</translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation>Wartet auf eine Antwort</translation>
    </message>
    <message>
        <source>Waiting for an answer to %1</source>
        <translation>Wartet auf eine Antwort für %1</translation>
    </message>
    <message>
        <source>Completed in %1 s</source>
        <translation>Abgeschlossen in %1 s</translation>
    </message>
    <message>
        <source>Failed: the script exited with code %1</source>
        <translation>Fehlgeschlagen: Das Skript endete mit Code %1</translation>
    </message>
    <message>
        <source>Timed out</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <source>Timed out: %1</source>
        <translation>Zeitüberschreitung: %1</translation>
    </message>
    <message>
        <source>Stopped after %1 s</source>
        <translation>Nach %1 s gestoppt</translation>
    </message>
    <message>
        <source>Suspended while waiting for an answer</source>
        <translation>Beim Warten auf eine Antwort unterbrochen</translation>
    </message>
    <message>
        <source>■ %1 (exit code %2)</source>
        <translation>■ %1 (Exit-Code %2)</translation>
    </message>
    <message>
        <source>Unsaved Script</source>
        <translation>Ungespeichertes Skript</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 hat ungespeicherte Änderungen. Speichern?</translation>
    </message>
    <message>
        <source>Run in Progress</source>
        <translation>Lauf aktiv</translation>
    </message>
    <message>
        <source>A run is in progress. Stop it and quit?</source>
        <translation>Ein Lauf ist aktiv. Stoppen und beenden?</translation>
    </message>
    <message>
        <source>Waiting for answers to %1 and one more call</source>
        <translation>Wartet auf Antworten für %1 und einen weiteren Aufruf</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for answers to %1 and %n more calls</source>
        <translation>
            <numerusform>Wartet auf Antworten für %1 und %n weiteren Aufruf</numerusform>
            <numerusform>Wartet auf Antworten für %1 und %n weitere Aufrufe</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ScriptEditor</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>No file to save to.</source>
        <translation>Keine Datei zum Speichern.</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
</context>
<context>
    <name>TraceModel</name>
    <message>
        <source>waiting for an answer</source>
        <translation>wartet auf eine Antwort</translation>
    </message>
    <message>
        <source>Call id: %1</source>
        <translation>Aufruf-ID: %1</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Output:
%1</source>
        <translation>Ausgabe:
%1</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>eingereiht</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>wiederholt</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>memoized</source>
        <translation>gemerkt</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Build and debug LLM agent tools and the scripts that call them.
Headless: toolstudio run PROJECT [SCRIPT] [--answers FILE] [--json]</source>
        <translation>Tools für LLM-Agenten und die Skripte, die sie aufrufen, bauen und debuggen.
Ohne Fenster: toolstudio run PROJEKT [SKRIPT] [--answers DATEI] [--json]</translation>
    </message>
    <message>
        <source>Project folder to open.</source>
        <translation>Zu öffnender Projektordner.</translation>
    </message>
    <message>
        <source>toolstudio: no display (DISPLAY and WAYLAND_DISPLAY are unset).
To run a script without a window: toolstudio run PROJECT [SCRIPT]</source>
        <translation>toolstudio: keine Anzeige (DISPLAY und WAYLAND_DISPLAY sind nicht gesetzt).
Ein Skript ohne Fenster ausführen: toolstudio run PROJEKT [SKRIPT]</translation>
    </message>
</context>
</TS>
