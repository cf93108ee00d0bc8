// riskstats: a bridge that plays games in Domination's own engine, headless, for scripts/outside/outside_domination.py.
//
// Written for riskstats (not part of Domination). It is compiled against Domination's engine classes, which
// the researcher obtains separately (docs/outside.md); nothing of Domination is in this repository.
//
// Protocol: one line per message. The driver writes commands on stdin; the bridge answers on stdout with
// one JSON object per line (Domination's own console output goes to stderr).
//
//   driver: game <seed> <turn cap> <cards: increasing|fixed> <seat> <seat> ...
//           (a seat is "remote", or a Domination AI: "hard", "average", "easy")
//   bridge: {"event":"board", ...}          the map as the engine loaded it: countries, borders, continents, cards
//   bridge: {"event":"decide", ...}         a remote seat must act: the whole position (see position() below)
//   driver: <a Domination command>          e.g. "attack 3 5", "roll 3", "placearmies 12 4", "endattack"
//           or "@ai <type>"                 let that Domination AI choose the command for the remote seat
//   ...                                     until
//   bridge: {"event":"over", "winner": <seat or -1>, "turns": <turns played>, "reason": "win"|"turn_cap",
//            "stats": [[kills, casualties, attacks, retreats, countries won, countries lost, attacked,
//                       reinforcements], ...]}      each player's engine statistics, summed over its turns
//   driver: quit
//   driver: board                           the bridge prints the board message of a new game and closes it
//
// "rejected": true in a "decide" means the engine refused the previous command (the position did not change).
// The AIs' wait is 0 and dice are not shown; the game's own Random (dice, first player, card draws) is seeded
// from <seed>; the AIs' own random choices are not.

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Observer;
import java.util.ResourceBundle;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import net.yura.domination.engine.Risk;
import net.yura.domination.engine.RiskAdapter;
import net.yura.domination.engine.RiskIO;
import net.yura.domination.engine.RiskUtil;
import net.yura.domination.engine.ai.AIManager;
import net.yura.domination.engine.core.Card;
import net.yura.domination.engine.core.Continent;
import net.yura.domination.engine.core.Country;
import net.yura.domination.engine.core.Player;
import net.yura.domination.engine.core.RiskGame;
import net.yura.domination.engine.core.StatType;
import net.yura.domination.engine.core.Statistic;

public class DominationBridge {

    static final String[] COLOURS = {"red", "blue", "green", "yellow", "cyan", "magenta"};
    static final BlockingQueue<Integer> NEEDS = new LinkedBlockingQueue<>();
    static PrintStream out;

    /** Files from one folder (the map and cards files); translations from the classpath. */
    static final class FolderIO implements RiskIO {
        final File folder;
        FolderIO(File folder) { this.folder = folder; }
        public InputStream openStream(String name) throws IOException { return new FileInputStream(new File(folder, name)); }
        public InputStream openMapStream(String name) throws IOException { return new FileInputStream(new File(folder, name)); }
        public ResourceBundle getResourceBundle(Class a, String n, Locale l) {
            return ResourceBundle.getBundle(a.getPackage().getName() + "." + n, l);
        }
        public void openURL(URL url) { }
        public void openDocs(String doc) { }
        public void saveGameFile(String name, RiskGame obj) { throw new UnsupportedOperationException(); }
        public InputStream loadGameFile(String file) { throw new UnsupportedOperationException(); }
        public OutputStream saveMapFile(String fileName) { throw new UnsupportedOperationException(); }
        public void renameMapFile(String oldName, String newName) { }
        public boolean deleteMapFile(String mapName) { return false; }
        public void getMap(String filename, Observer observer) { }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 && args.length != 3) {
            System.err.println("usage: java DominationBridge <maps folder> [<map file> <cards file>]"
                               + " (default: risk.map risk.cards, the classic map)");
            System.exit(2);
        }
        out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);  // the engine prints to System.out: keep the protocol channel clean
        RiskUtil.streamOpener = new FolderIO(new File(args[0]));
        AIManager.setWait(0);
        Risk.setShowDice(false);
        Risk risk = args.length == 3 ? new Risk(args[1], args[2]) : new Risk("risk.map", "risk.cards");
        risk.addRiskListener(new RiskAdapter() {
            public void needInput(int s) { NEEDS.add(s); }
        });
        AIManager ais = new AIManager();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("quit")) break;
            if (w[0].equals("board")) {
                risk.parserAndWait("newgame");
                risk.parserAndWait("newplayer human red p0");
                risk.parserAndWait("newplayer human blue p1");
                risk.parserAndWait("startgame domination increasing recycle");
                out.println(board(risk.getGame()));
                risk.parserAndWait("closegame");
                NEEDS.clear();
                continue;
            }
            if (!w[0].equals("game") || w.length < 6) {
                out.println("{\"event\":\"error\",\"message\":" + quote("unknown command: " + line) + "}");
                continue;
            }
            playGame(risk, ais, in, Long.parseLong(w[1]), Integer.parseInt(w[2]), w[3],
                     java.util.Arrays.copyOfRange(w, 4, w.length));
        }
        risk.kill();
        System.exit(0);
    }

    static void playGame(Risk risk, AIManager ais, BufferedReader in, long seed, int turnCap, String cards,
                         String[] seats) throws Exception {
        risk.parserAndWait("newgame");
        RiskGame game = risk.getGame();
        Field rf = RiskGame.class.getDeclaredField("r");
        rf.setAccessible(true);
        rf.set(game, new java.util.Random(seed));
        for (int i = 0; i < seats.length; i++) {
            String type = seats[i].equals("remote") ? "human" : "ai " + seats[i];
            risk.parserAndWait("newplayer " + type + " " + COLOURS[i] + " p" + i);
        }
        NEEDS.clear();
        risk.parser("startgame domination " + cards + " recycle");
        boolean boardSent = false;
        String last = null;
        while (true) {
            Integer s = NEEDS.poll(600, TimeUnit.SECONDS);
            if (s == null) throw new IllegalStateException("the engine asked for nothing in 600 s");
            if (!NEEDS.isEmpty()) continue;  // only the latest request counts
            game = risk.getGame();
            if (game == null || s < 0) continue;
            if (!boardSent) {
                out.println(board(game));
                boardSent = true;
            }
            int state = game.getState();
            int turns = turns(game);
            if (state == RiskGame.STATE_GAME_OVER) {
                out.println("{\"event\":\"over\",\"winner\":" + game.getPlayers().indexOf(game.getCurrentPlayer())
                            + ",\"turns\":" + turns + ",\"reason\":\"win\",\"stats\":" + stats(game) + "}");
                break;
            }
            if (turns > turnCap) {
                out.println("{\"event\":\"over\",\"winner\":-1,\"turns\":" + turns + ",\"reason\":\"turn_cap\""
                            + ",\"stats\":" + stats(game) + "}");
                break;
            }
            if (state == RiskGame.STATE_END_TURN) {  // nothing to choose
                risk.parser("endgo");
                continue;
            }
            String pos = position(game);
            out.println("{\"event\":\"decide\",\"rejected\":" + pos.equals(last) + "," + pos.substring(1));
            last = pos;
            String answer = in.readLine();
            if (answer == null) throw new IllegalStateException("the driver closed its pipe");
            answer = answer.trim();
            if (answer.startsWith("@ai ")) {
                Player me = game.getCurrentPlayer();
                answer = ais.getOutput(game, ais.getTypeFromCommand(answer.substring(4).trim()));
                if (me != game.getCurrentPlayer()) throw new IllegalStateException("the AI changed the player");
            }
            risk.parser(answer);
        }
        risk.parserAndWait("closegame");
        NEEDS.clear();
    }

    static final StatType[] SUMMED = {StatType.KILLS, StatType.CASUALTIES, StatType.ATTACKS, StatType.RETREATS,
                                      StatType.COUNTRIES_WON, StatType.COUNTRIES_LOST, StatType.ATTACKED,
                                      StatType.REINFORCEMENTS};

    /** Each player's engine statistics summed over its turns, in the order of SUMMED (the "over" message's "stats"). */
    static String stats(RiskGame game) {
        StringBuilder b = new StringBuilder("[");
        List players = game.getPlayers();
        for (int i = 0; i < players.size(); i++) {
            if (i > 0) b.append(',');
            b.append('[');
            for (int k = 0; k < SUMMED.length; k++) {
                double sum = 0;
                for (Object st : ((Player) players.get(i)).getStatistics()) sum += ((Statistic) st).get(SUMMED[k]);
                if (k > 0) b.append(',');
                b.append((long) sum);
            }
            b.append(']');
        }
        return b.append(']').toString();
    }

    static int turns(RiskGame game) {
        int n = 0;
        for (Object p : game.getPlayers()) n += ((Player) p).getStatistics().size();
        return n;
    }

    static String board(RiskGame game) {
        StringBuilder b = new StringBuilder("{\"event\":\"board\",\"continents\":[");
        Continent[] cs = game.getContinents();
        for (int i = 0; i < cs.length; i++) {
            if (i > 0) b.append(',');
            b.append("{\"name\":").append(quote(cs[i].getIdString())).append(",\"bonus\":").append(cs[i].getArmyValue()).append('}');
        }
        b.append("],\"countries\":[");
        Country[] ts = game.getCountries();
        for (int i = 0; i < ts.length; i++) {
            if (i > 0) b.append(',');
            b.append("{\"id\":").append(ts[i].getColor()).append(",\"name\":").append(quote(ts[i].getIdString()))
             .append(",\"continent\":").append(quote(ts[i].getContinent().getIdString())).append(",\"neighbours\":[");
            List nb = ts[i].getNeighbours();
            for (int k = 0; k < nb.size(); k++) {
                if (k > 0) b.append(',');
                b.append(((Country) nb.get(k)).getColor());
            }
            b.append("]}");
        }
        b.append("],\"cards\":[");
        List all = new java.util.ArrayList(game.getCards());
        all.addAll(game.getUsedCards());
        for (Object p : game.getPlayers()) all.addAll(((Player) p).getCards());
        for (int k = 0; k < all.size(); k++) {
            if (k > 0) b.append(',');
            b.append(card((Card) all.get(k), true));
        }
        return b.append("]}").toString();
    }

    static String card(Card c, boolean withType) {
        String id = c.getCountry() == null ? "\"wildcard\"" : String.valueOf(c.getCountry().getColor());
        if (!withType) return id;
        return "{\"card\":" + id + ",\"type\":" + quote(c.getName()) + "}";
    }

    static String cards(List cs) {
        StringBuilder b = new StringBuilder("[");
        for (int k = 0; k < cs.size(); k++) {
            if (k > 0) b.append(',');
            b.append(card((Card) cs.get(k), false));
        }
        return b.append(']').toString();
    }

    /** The whole position: what the engine knows, named as the engine names it (the driver maps it). */
    static String position(RiskGame game) {
        List players = game.getPlayers();
        StringBuilder b = new StringBuilder("{\"state\":").append(game.getState())
            .append(",\"seat\":").append(players.indexOf(game.getCurrentPlayer()))
            .append(",\"turns\":").append(turns(game))
            .append(",\"setup_done\":").append(game.getSetupDone())
            .append(",\"trade_cap\":").append(game.getTradeCap())
            .append(",\"captured\":").append(game.isCapturedCountry())
            .append(",\"next_set\":").append(game.getNewCardState())
            .append(",\"players\":[");
        for (int i = 0; i < players.size(); i++) {
            Player p = (Player) players.get(i);
            if (i > 0) b.append(',');
            b.append("{\"type\":").append(p.getType()).append(",\"territories\":").append(p.getNoTerritoriesOwned())
             .append(",\"extra\":").append(p.getExtraArmies()).append(",\"cards\":").append(cards(p.getCards())).append('}');
        }
        b.append("],\"countries\":[");
        Country[] ts = game.getCountries();
        for (int i = 0; i < ts.length; i++) {
            if (i > 0) b.append(',');
            Player o = ts[i].getOwner();
            b.append('[').append(ts[i].getColor()).append(',').append(o == null ? -1 : players.indexOf(o))
             .append(',').append(ts[i].getArmies()).append(']');
        }
        b.append("],\"deck\":").append(cards(game.getCards())).append(",\"used\":").append(cards(game.getUsedCards()));
        Country a = game.getAttacker(), d = game.getDefender();
        if (a != null && d != null) {
            b.append(",\"attacker\":").append(a.getColor()).append(",\"defender\":").append(d.getColor())
             .append(",\"attack_dice\":").append(game.getAttackerDice()).append(",\"must_move\":").append(game.getMustMove());
        }
        return b.append('}').toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
