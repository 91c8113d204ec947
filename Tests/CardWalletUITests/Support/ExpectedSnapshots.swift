// Expected frames of RenderSnapshotTests.states(), as Grid.text. Review changes to these by eye.

let expectedSnapshots: [String: String] = [
    "list 80x24": #"""
     CardWallet · 14 cards                            2/14 · sorted by wallet order
     Name                  Company            Title           Email
     김민지                Acme               Engineer        person0@example.com
     Kim Min-ji            네이버             디자이너        person1@example.com
     ^[[2J^[[31mCLEARED    ^[]52;c;cm0gLXJm…                  a@b.co
     abc\u{202E}fdp.exe    Null^@Corp         \u{2066}isola…  bell^G@x.io
     Zero\u{200B}Width\u…  \u{301}mark        C1\u{9B}31m     del^?@x.io
     山田 太郎             ソニー             部長            person2@example.com
     王小明                腾讯               Product Manag…  person3@example.com
     Ada Lovelace          Initech                            person4@example.com
     José Álvarez          Globex Corporati…  CTO             person5@example.com
     Zoë 🦊 Fox                               研究员          person6@example.com
     Grace Hopper          Umbrella           Engineer        person7@example.com
     이서준                Hooli              디자이너        person8@example.com
     Priya (प्रिया)         क्षितिज Labs        डेटा वैज्ञानिक     priya@example.in
     Maximilian Alexande…  北京字节跳动科技…  Senior Princi…  maximilian.alexander…






      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     ? help  j/k move  / filter  s sort  Enter open  a add  e edit  d delete  q quit
    """#,
    "filter 80x24": #"""
     CardWallet · 1 of 14 cards                        1/1 · sorted by wallet order
     Name                  Company            Title           Email
     김민지                Acme               Engineer        person0@example.com


















     Filter / 김                                                            1 match
      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     F1 help  Enter keep  Esc clear  ↑/↓ move
    """#,
    "detail 120x40": #"""
     CardWallet · card
     Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff
     Senior Principal Distinguished Engineer of Everything · 北京字节跳动科技有限公司 · R&D

     Email       maximilian.alexander.wolfeschlegelsteinhausenbergerdorff@very-long-domain.example.com
     Phone       +82 10-1234-5678
     Website     https://example.com/long
     Address     \u{202E}reversed street 7
     Birthday    1990-04-01
     Bio         Line one of a long biography that goes on and on across the whole width of the screen and then some more.
                 Second line: ^[[31mred?^[[0m 김민지님 안녕하세요 🦊
     TMI         Has 3 cats
     Tags        demo, sample
     Image       none: default avatar 0

     version 1 · id long













     Network log · 2 lines · Tab to browse · L size · l hide
     03:04:05 → GET /card/long
     03:04:05 ← GET /card/^[[2J 404 E05 3.0 ms 120 B no such card ^[]52;c;eA==^G\u{202E}






      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     ? help  e edit  d delete  y copy  Q QR  q back  l log
    """#,
    "list 120x40": #"""
     CardWallet · 14 cards                                                                            6/14 · sorted by name
     Name                             Company                     Title                   Email
     ^[[2J^[[31mCLEARED               ^[]52;c;cm0gLXJmIC8=^G                              a@b.co
     abc\u{202E}fdp.exe               Null^@Corp                  \u{2066}isolate\u{206…  bell^G@x.io
     Ada Lovelace                     Initech                                             person4@example.com
     Grace Hopper                     Umbrella                    Engineer                person7@example.com
     José Álvarez                     Globex Corporation          CTO                     person5@example.com
     Kim Min-ji                       네이버                      디자이너                person1@example.com
     Maximilian Alexander Wolfeschl…  北京字节跳动科技有限公司    Senior Principal Dist…  maximilian.alexander.wolfeschleg…
     Priya (प्रिया)                    क्षितिज Labs                 डेटा वैज्ञानिक             priya@example.in
     Zero\u{200B}Width\u{FEFF}        \u{301}mark                 C1\u{9B}31m             del^?@x.io
     Zoë 🦊 Fox                                                   研究员                  person6@example.com
     山田 太郎                        ソニー                      部長                    person2@example.com
     王小明                           腾讯                        Product Manager         person3@example.com
     김민지                           Acme                        Engineer                person0@example.com
     이서준                           Hooli                       디자이너                person8@example.com













     Network log · 2 lines · Tab to browse · L size · l hide
     03:04:05 → GET /cards?offset=0&limit=100
     03:04:05 ← GET /card/^[[2J 404 E05 3.0 ms 120 B no such card ^[]52;c;eA==^G\u{202E}






      demo@cardwallet.dev @ http://127.0.0.1:8080/v1 │ Sorted by name
     ? help  j/k move  / filter  s sort  Enter open  a add  e edit  d delete  q quit  l log
    """#,
    "list not loaded 80x24": #"""
     CardWallet · cards not loaded                           sorted by wallet order
     Name                  Company            Title           Email
     The cards could not be loaded: press r to try again (l shows the network log)



















      demo@cardwallet.dev… │ Could not load cards: server error 503; see the log (l)
     ? help  j/k move  / filter  s sort  Enter open  a add  e edit  d delete  q quit
    """#,
    "too small 59x14": #"""





                        Terminal too small
                   59×14; CardWallet needs 60×15
            Enlarge the window, or press Ctrl-C to quit






    """#,
    "login error 80x24": #"""
     CardWallet · log in

      Log in to a card server

      Server    http://127.0.0.1:8080/v1
                ! Cannot connect to http://127.0.0.1:8080/v1: connection refused

      Email     demo@cardwallet.dev

      Password  ******












      not logged in
     F1 help  Tab next  Enter log in  ^O browser  F3 accounts  Esc quit
    """#,
    "conflict 80x24": #"""
     CardWallet · edit card (version 9)
     Edit “Kim Min-ji”
     The card changed on the server while you edited it (E07).
                  Yours                             Server, version 9
     Name         Kim Min-ji                        = same
    *Title        Boss                              ← yours; server unchanged: 디 …
     Company      Their Co                          = taken: you had not changed it
     Department   R&D                               = same
     Email        person1@example.com               = same
     Phone        +82 10-1234-5678                  = same
     Website      https://example.com/card-1        = same
     Address      1 Sample Street, Seoul            = same
     Bio          Likes terminals, keyboards and…   = same
     Birthday     1990-04-01                        = same
     TMI          Has 3 cats                        = same
     Tags         demo, sample                      = same
     Avatar       1                                 = same





      demo@cardwallet.dev… │ Changed on the server (E07): Enter saves yours over ve…
     F1 help  Tab next  Enter save  Esc cancel  ^T take theirs  ^G take all
    """#,
    "log detail 80x24": #"""
     CardWallet · 14 cards                            2/14 · sorted by wallet order
     Log line (Esc closes)
     03:04:05 ← GET /card/^[[2J 404 E05 3.0 ms 120 B
     no such card ^[]52;c;eA==^G\u{202E}
     Authorization: <private>












     Network log · 1 line · Esc back · f failures · Enter detail
     03:04:05 ← GET /card/^[[2J 404 E05 3.0 ms 120 B no such card ^[]52;c;eA==^G\u…



      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     Esc close
    """#,
    "reauth 80x24": #"""
     CardWallet · 14 cards                            2/14 · sorted by wallet order
     Name                  Company            Title           Email
     김민지                Acme               Engineer        person0@example.com
     Kim Min-ji            네이버             디자이너        person1@example.com
     ^[[2J^[[31mCLEARED    ^[]52;c;cm0gLXJm…                  a@b.co
     abc┌─ Session expired (E06) ──────────────────────────────────────────────┐
     Zer│ Log in again to carry on; nothing you typed is lost.                 │
     山 │                                                                      │m
     王 │                                                                      │m
     Ada│ Server    http://127.0.0.1:8080/v1                                   │m
     Jos│                                                                      │m
     Zoë│ Email     demo@cardwallet.dev                                        │m
     Gra│                                                                      │m
     이 │ Password  **                                                         │m
     Pri│                                                                      │
     Max│                                                                      │er…
        │                                                                      │
        └──────────────────────────────────────────────────────────────────────┘




      session expired for demo@cardwallet.dev
     F1 help  Tab next  Enter log in  ^O browser  Esc not now
    """#,
    "reauth with log 60x15": #"""
     CardWallet · 14 cards        2/14 · sorted by wallet order
     ┌─ Session expired (E06) ────────────────────────────────┐
     │ Log in again to carry on; nothing you typed is lost.   │
     │                                                        │
     │ Server    http://127.0.0.1:8080/v1                     │
     │                                                        │
     │ Email     demo@cardwallet.dev                          │
     │                                                        │
     │ Password                                               │
     │           ! Wrong email or password (E02). Try again.  │
     │                                                        │
     │                                                        │
     └────────────────────────────────────────────────────────┘
      session expired for demo@cardwallet.dev
     F1 help  Tab next  Enter log in  ^O browser  Esc not now
    """#,
    "filter every field 80x24": #"""
     CardWallet · 6 of 14 cards                        1/6 · sorted by wallet order
     Name                  Company            Title           Email
     Kim Min-ji            네이버             디자이너        phone: +82 10-5550-1…
     ^[[2J^[[31mCLEARED    ^[]52;c;cm0gLXJm…                  bio: ^[[31mred^[[0m …
     王小明                腾讯               Product Manag…  person3@example.com
     José Álvarez          Globex Corporati…  CTO             address: …Rue du Pai…
     Priya (प्रिया)         क्षितिज Labs        डेटा वैज्ञानिक     priya@example.in
     Maximilian Alexande…  北京字节跳动科技…  Senior Princi…  tags: Sourdough Club…













     Filter / sourdough                                                   6 matches
      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     F1 help  Enter keep  Esc clear  ↑/↓ move
    """#,
    "filter every field 64x16": #"""
     CardWallet · 6 of 14 cards        1/6 · sorted by wallet order
     Name                  Company            Email
     Kim Min-ji            네이버             phone: +82 10-5550-1…
     ^[[2J^[[31mCLEARED    ^[]52;c;cm0gLXJm…  bio: ^[[31mred^[[0m …
     王小明                腾讯               person3@example.com
     José Álvarez          Globex Corporati…  address: …Rue du Pai…
     Priya (प्रिया)         क्षितिज Labs        title: Sourdough वै  …
     Maximilian Alexande…  北京字节跳动科技…  tags: Sourdough Club…





     Filter / sourdough                                   6 matches
      demo@cardwallet.dev @ http://127.0.0.1:8080/v1
     F1 help  Enter keep  Esc clear  ↑/↓ move
    """#,
]
